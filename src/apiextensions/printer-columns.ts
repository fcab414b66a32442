import type { KubeObject } from '../api/types.js';
import { age } from '../tables/cell-format.js';
import type { Printer } from '../tables/printer.js';
import { objectMetaCreationTimestamp } from '../tables/column-descriptions.js';
import type { TableColumnDefinition } from '../tables/table-types.js';
import type { CrdPrinterColumn } from '../api/crd-types.js';
import { evaluateJsonPath, parseJsonPath } from './json-path.js';

const NAME_COLUMN: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

/** CRDs without printer columns get an Age column (apiextensions defaulting). */
export const DEFAULT_PRINTER_COLUMNS: readonly CrdPrinterColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

/** The Table printer of a custom resource version: Name, then its additionalPrinterColumns (tableconvertor.go). */
export function customResourcePrinter(columns: readonly CrdPrinterColumn[] | undefined): Printer {
  const effective = columns === undefined || columns.length === 0 ? DEFAULT_PRINTER_COLUMNS : columns;
  const compiled = effective.map((c) => ({ column: c, steps: parseJsonPath(c.jsonPath) }));
  return {
    style: 'default',
    columns: [
      NAME_COLUMN,
      ...effective.map((c) => ({
        name: c.name,
        type: (['integer', 'number', 'boolean', 'date'].includes(c.type) ? c.type : 'string') as TableColumnDefinition['type'],
        format: c.format ?? '',
        description: c.description ?? (c === DEFAULT_PRINTER_COLUMNS[0] ? objectMetaCreationTimestamp : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`),
        priority: c.priority ?? 0,
      })),
    ],
    row(obj: KubeObject, now: Date): unknown[] {
      return [
        obj.metadata.name ?? '',
        ...compiled.map(({ column, steps }) => {
          const results = evaluateJsonPath(steps, obj);
          if (results.length === 0) return null;
          if (column.type === 'date') return age(results[0], now);
          if (results.length === 1 && (column.type === 'integer' || column.type === 'number' || column.type === 'boolean')) return results[0];
          return results.map((r) => (typeof r === 'object' ? JSON.stringify(r) : String(r))).join(' ');
        }),
      ];
    },
  };
}
