import type { KubeObject, ListMeta, ObjectMeta } from '../api/types.js';

/** meta.k8s.io/v1 TableColumnDefinition; every field is serialized, even empty ones. */
export interface TableColumnDefinition {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly format: string;
  readonly description: string;
  /** 0 = default output, 1 = only with `-o wide`. */
  readonly priority: number;
}

export interface TableRowCondition {
  readonly type: 'Completed';
  readonly status: 'True';
  readonly reason: string;
  readonly message: string;
}

export interface PartialObjectMetadata {
  readonly kind: 'PartialObjectMetadata';
  readonly apiVersion: 'meta.k8s.io/v1';
  readonly metadata: ObjectMeta;
}

export interface TableRow {
  readonly cells: readonly unknown[];
  readonly conditions?: readonly TableRowCondition[];
  /** `null` with includeObject=None (RawExtension with no object serializes as null). */
  readonly object: KubeObject | PartialObjectMetadata | null;
}

export interface Table {
  readonly kind: 'Table';
  readonly apiVersion: 'meta.k8s.io/v1';
  readonly metadata: ListMeta;
  /** `null` when headers are suppressed (watch events after the first); the field has no omitempty upstream. */
  readonly columnDefinitions: readonly TableColumnDefinition[] | null;
  /** `null` only for the default convertor on an empty list (it never allocates its rows slice). */
  readonly rows: readonly TableRow[] | null;
}

/** `?includeObject=`: what each row's `object` carries. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';
