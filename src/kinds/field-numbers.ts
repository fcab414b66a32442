import type { FieldNumberTable, MessageFields } from './define/field-numbers.js';
import { BUILTIN_KINDS, SHARED_TYPES } from './index.js';

function mergeFieldNumbers(parts: readonly FieldNumberTable[]): FieldNumberTable {
  const merged: Record<string, MessageFields> = {};
  for (const part of parts) {
    for (const [name, fields] of Object.entries(part)) {
      if (name in merged) throw new Error(`protobuf message ${name} is numbered twice`);
      merged[name] = fields;
    }
  }
  return Object.freeze(merged);
}

/** Field numbers of every protobuf message reachable from the served built-in kinds. */
export const FIELD_NUMBERS: FieldNumberTable = mergeFieldNumbers(
  [...SHARED_TYPES, ...BUILTIN_KINDS].flatMap((types) => (types.fieldNumbers === undefined ? [] : [types.fieldNumbers])),
);
