import type { KubeObject, ListMeta } from '../api/types.js';
import { goQuote } from '../util/go-quote.js';
import type { Printer } from './printer.js';
import type { IncludeObject, PartialObjectMetadata, Table, TableRow } from './table-types.js';

export interface TableInput {
  readonly objects: readonly KubeObject[];
  readonly includeObject: IncludeObject;
  readonly now: Date;
  /** Present for list responses; absent means `objects` holds the single object of a GET or watch event. */
  readonly listMeta?: ListMeta;
  /** Watch events after the first omit the column definitions. */
  readonly noHeaders?: boolean;
  /** The kind's printer: a built-in kind's (src/kinds/) or a custom resource's additionalPrinterColumns. */
  readonly printer: Printer;
}

function rowObject(obj: KubeObject, includeObject: IncludeObject): KubeObject | PartialObjectMetadata | null {
  switch (includeObject) {
    case 'Object':
      return obj;
    case 'Metadata':
      return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
    case 'None':
      return null;
  }
}

/** A list's metadata, or the single object's resourceVersion, as the table generators copy them. */
function tableMetadata(input: TableInput): ListMeta {
  const source = input.listMeta ?? { resourceVersion: input.objects[0]?.metadata.resourceVersion };
  const metadata: ListMeta = {};
  if (source.resourceVersion !== undefined && source.resourceVersion !== '') metadata.resourceVersion = source.resourceVersion;
  if (source.continue !== undefined && source.continue !== '') metadata.continue = source.continue;
  if (source.remainingItemCount !== undefined) metadata.remainingItemCount = source.remainingItemCount;
  return metadata;
}

/** Server-side printing: the meta.k8s.io/v1 Table for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`. */
export function tableFor(input: TableInput): Table {
  const printer = input.printer;
  const sorted = input.listMeta !== undefined && printer.listOrder !== undefined;
  const objects = sorted ? [...input.objects].sort((a, b) => printer.listOrder?.(a, b) ?? 0) : input.objects;
  const rows: TableRow[] = objects.map((obj) => {
    const conditions = printer.conditions?.(obj);
    const object = rowObject(obj, input.includeObject);
    return conditions === undefined
      ? { cells: printer.row(obj, input.now), object }
      : { cells: printer.row(obj, input.now), conditions, object };
  });
  const omitHeaders = input.noHeaders === true && printer.style !== 'aggregator';
  // The default convertor appends rows to a nil slice, so an empty list serializes `rows: null`.
  const nullRows = printer.style === 'default' && rows.length === 0;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: tableMetadata(input),
    columnDefinitions: omitHeaders ? null : printer.columns,
    rows: nullRows ? null : rows,
  };
}

/** An `includeObject` value the server rejects; the handler answers 400 BadRequest with this message. */
export class UnrecognizedIncludeObjectError extends Error {
  constructor(value: string) {
    super(`unrecognized includeObject value: ${goQuote(value)}`);
    this.name = 'UnrecognizedIncludeObjectError';
  }
}

/** The `includeObject` query parameter: absent means Metadata on the server (kubectl asks for Object). */
export function parseIncludeObject(value: string | undefined): IncludeObject {
  if (value === undefined || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw new UnrecognizedIncludeObjectError(value);
}
