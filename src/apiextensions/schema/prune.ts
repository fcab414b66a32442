import { child, index } from './field-path.js';
import { additionalPropertiesSchema, hasDefault, isJsonObject, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

export interface PruneResult {
  /** Paths of the dropped fields (`spec.foo`, `spec.items[0].bar`), sorted as the apiserver sorts them. */
  readonly pruned: string[];
}

/**
 * Drops every object field the structural schema does not specify, in place. The resource root (and every
 * `x-kubernetes-embedded-resource`) keeps apiVersion, kind and metadata; metadata is trimmed to ObjectMeta by the
 * generic machinery, not here. `x-kubernetes-preserve-unknown-fields` keeps unknown fields but still prunes inside
 * the fields the schema does specify.
 */
export function prune(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot: boolean): PruneResult {
  let s = schema;
  if (isResourceRoot && s?.['x-kubernetes-embedded-resource'] !== true) s = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  const pruned: string[] = [];
  pruneValue(obj, s, '', pruned);
  pruned.sort();
  return { pruned };
}

function pruneValue(x: unknown, s: JSONSchemaProps | undefined, path: string, pruned: string[]): void {
  if (s?.['x-kubernetes-preserve-unknown-fields'] === true) {
    pruneKnown(x, s, path, pruned);
    return;
  }
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => {
      pruneValue(v, items, index(path, i), pruned);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [k, v] of Object.entries(x)) {
    if (s === undefined) {
      pruned.push(child(path, k));
      delete x[k];
      continue;
    }
    if (s['x-kubernetes-embedded-resource'] === true && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop !== undefined) pruneValue(v, prop, child(path, k), pruned);
    else if (s.additionalProperties !== undefined) pruneValue(v, additionalPropertiesSchema(s), child(path, k), pruned);
    else {
      pruned.push(child(path, k));
      delete x[k];
    }
  }
}

/** Below preserve-unknown-fields: unknown fields stay, specified ones are still pruned inside. */
function pruneKnown(x: unknown, s: JSONSchemaProps | undefined, path: string, pruned: string[]): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => {
      pruneKnown(v, items, index(path, i), pruned);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [k, v] of Object.entries(x)) {
    if (s['x-kubernetes-embedded-resource'] === true && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop !== undefined) pruneValue(v, prop, child(path, k), pruned);
    else if (s.additionalProperties !== undefined) pruneValue(v, additionalPropertiesSchema(s), child(path, k), pruned);
  }
}

/**
 * Removes `null` values of fields that are neither nullable nor defaulted (defaulting fills the defaulted ones), as
 * the apiserver does right after pruning so that an explicit null means "unset".
 */
export function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (const v of x) pruneNonNullableNulls(v, items);
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [k, v] of Object.entries(x)) {
    const fieldSchema = s?.properties?.[k] ?? additionalPropertiesSchema(s);
    if (v === null && fieldSchema !== undefined && fieldSchema.nullable !== true && !hasDefault(fieldSchema)) delete x[k];
    else pruneNonNullableNulls(v, fieldSchema);
  }
}
