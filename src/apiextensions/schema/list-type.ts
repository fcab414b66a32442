import type { FieldError } from '../../api/errors.js';
import { schemaFieldError } from './field-errors.js';
import { child, index, key } from './field-path.js';
import { additionalPropertiesSchema, isJsonObject, itemsSchema, type JsonObject, type JSONSchemaProps } from '../../api/json-schema-props.js';

/**
 * Uniqueness of `x-kubernetes-list-type: set` items and of `map` items' keys (`x-kubernetes-list-map-keys`),
 * reported as Duplicate value on the second occurrence of each repeated item, as apiextensions' listtype package
 * does.
 */
export function validateListSetsAndMaps(obj: JsonObject, s: JSONSchemaProps | undefined, path = ''): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  const additional = additionalPropertiesSchema(s);
  if (additional !== undefined) {
    for (const [k, v] of Object.entries(obj)) errs.push(...validateValue(key(path, k), additional, v));
  }
  if (s.properties !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const prop = s.properties[k];
      if (prop !== undefined) errs.push(...validateValue(child(path, k), prop, v));
    }
  }
  return errs;
}

function validateValue(path: string, s: JSONSchemaProps, v: unknown): FieldError[] {
  if (Array.isArray(v)) return validateArray(path, s, v);
  if (isJsonObject(v)) return validateListSetsAndMaps(v, s, path);
  return [];
}

function validateArray(path: string, s: JSONSchemaProps, arr: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  if (s['x-kubernetes-list-type'] === 'set') {
    for (const i of nonUniqueIndices(arr)) errs.push(schemaFieldError.duplicate(index(path, i), arr[i]));
  } else if (s['x-kubernetes-list-type'] === 'map') {
    errs.push(...validateListMap(path, s['x-kubernetes-list-map-keys'] ?? [], arr));
  }
  const items = itemsSchema(s);
  if (items !== undefined)
    arr.forEach((x, i) => {
      errs.push(...validateValue(index(path, i), items, x));
    });
  return errs;
}

/** Go compares scalars by value and compound items by their JSON encoding (which sorts object keys). */
function identity(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) =>
    isJsonObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/** Indices of the second appearance of every repeated item. */
function nonUniqueIndices(arr: readonly unknown[], ids: readonly string[] = arr.map(identity)): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  ids.forEach((id, i) => {
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

const UNSPECIFIED = '\u0000unspecified';

function validateListMap(path: string, keys: readonly string[], arr: unknown[]): FieldError[] {
  for (const [i, x] of arr.entries()) {
    if (x !== null && !isJsonObject(x))
      return [schemaFieldError.invalid(index(path, i), x, 'must be an object for an array of list-type map')];
  }
  if (arr.length <= 1) return [];
  const keyValues = arr.map((x): JsonObject => {
    const entry: JsonObject = {};
    if (isJsonObject(x)) for (const k of keys) if (k in x) entry[k] = x[k];
    return entry;
  });
  // With a single key an item lacking it is its own "unspecified" value, distinct from any real key value.
  const ids =
    keys.length === 1
      ? keyValues.map((kv) => (keys[0] !== undefined && keys[0] in kv ? identity(kv[keys[0]]) : UNSPECIFIED))
      : keyValues.map(identity);
  return nonUniqueIndices(arr, ids).map((i) => schemaFieldError.duplicate(index(path, i), keyValues[i]));
}
