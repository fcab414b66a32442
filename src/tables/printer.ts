import type { KubeObject } from '../api/types.js';
import type { TableColumnDefinition, TableRowCondition } from './table-types.js';

/**
 * How one kind becomes table rows. `style` records which upstream convertor serves the kind, because they differ
 * in small observable ways (headers on watch, `rows: null` on empty lists).
 */
export interface Printer {
  readonly columns: readonly TableColumnDefinition[];
  /** Cells for all columns, wide ones included: the server always prints wide and kubectl filters by priority. */
  row(obj: KubeObject, now: Date): unknown[];
  conditions?(obj: KubeObject): TableRowCondition[] | undefined;
  /** The order a list's rows are printed in, where the Go list printer sorts (FlowSchemas); storage order otherwise. */
  listOrder?(a: KubeObject, b: KubeObject): number;
  /**
   * - 'printer': k/k pkg/printers handlers (most built-ins);
   * - 'default': apiserver's DefaultTableConvertor (kinds without a printer);
   * - 'aggregator': kube-aggregator's APIService convertor, which never omits its column definitions.
   */
  readonly style: 'printer' | 'default' | 'aggregator';
}

type ColumnType = TableColumnDefinition['type'];

/** Shorthand for a column definition; `wide` marks priority-1 columns. */
export function column(
  name: string,
  type: ColumnType,
  description: string,
  options: { format?: string; wide?: boolean } = {},
): TableColumnDefinition {
  return { name, type, format: options.format ?? '', description, priority: options.wide === true ? 1 : 0 };
}
