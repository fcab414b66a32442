import type { Definitions } from '../openapi/schema.js';
import { BUILTIN_KINDS, SHARED_TYPES } from './index.js';

/** Merges the parts, refusing a name defined twice so one part cannot silently shadow another. */
function mergeDefinitions(parts: readonly Definitions[]): Definitions {
  const merged: Record<string, Definitions[string]> = {};
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part)) {
      if (name in merged) throw new Error(`OpenAPI definition ${name} is defined twice`);
      merged[name] = schema;
    }
  }
  const sorted: Record<string, Definitions[string]> = {};
  for (const name of Object.keys(merged).sort()) sorted[name] = merged[name] as Definitions[string];
  return Object.freeze(sorted);
}

/** Every built-in definition (the shared types' and each kind's), sorted by name. */
export const BUILTIN_DEFINITIONS: Definitions = mergeDefinitions(
  [...SHARED_TYPES, ...BUILTIN_KINDS].flatMap((types) => (types.definitions === undefined ? [] : [types.definitions])),
);
