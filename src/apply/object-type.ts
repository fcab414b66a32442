import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { definitionRef, type Schema } from '../openapi/schema.js';
import { MergeSchemas, type MergeType } from './schema.js';

const builtins = new MergeSchemas(BUILTIN_DEFINITIONS);

/**
 * The merge type of a served kind from the one schema source (R10.65): built-ins from the served definitions,
 * custom resources from their version's schema, whose metadata refers to the built-in ObjectMeta.
 */
export function kindMergeType(definition: string, extra: Readonly<Record<string, Schema>> = {}): MergeType {
  const own = extra[definition];
  if (own === undefined) return builtins.typeOf(definitionRef(definition));
  return new MergeSchemas({ ...BUILTIN_DEFINITIONS, ...extra }).typeOf(own);
}
