import { additionalPropertiesSchema, hasDefault, isJsonObject, itemsSchema, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * Structural defaulting, in place: a property with a `default` that is missing (or null while not nullable) gets a
 * deep copy of it, then defaulting descends into every field (including the defaults just set), array items and
 * additionalProperties values. The apiserver runs it after pruning when it decodes a request or a stored object.
 */
export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => {
      if (isNonNullableNull(v, items)) x[i] = structuredClone(items?.default ?? null);
      else applyDefaults(v, items);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (!hasDefault(prop)) continue;
    if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = structuredClone(prop.default);
  }
  const additional = additionalPropertiesSchema(s);
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties?.[k];
    if (prop !== undefined) applyDefaults(v, prop);
    else if (s.additionalProperties !== undefined) {
      if (isNonNullableNull(v, additional)) x[k] = structuredClone(additional?.default ?? null);
      else applyDefaults(v, additional);
    }
  }
}

function isNonNullableNull(v: unknown, s: JSONSchemaProps | undefined): boolean {
  return v === null && s !== undefined && s.nullable !== true;
}
