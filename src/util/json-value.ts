/** Helpers for plain JSON values (the output of JSON.parse) shared by the patch engines and the decoder. */

export type JsonMap = Record<string, unknown>;

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasKey(map: JsonMap, key: string): boolean {
  return Object.hasOwn(map, key);
}

/**
 * Sets an own property. Plain assignment would treat a "__proto__" key from JSON as the prototype, so that one
 * key is defined; every other key is assigned, which keeps the object in V8's fast (non-dictionary) mode.
 */
export function setKey(map: JsonMap, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
  else map[key] = value;
}

export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (isJsonMap(value)) {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) setKey(out, k, cloneJson(v));
    return out as T;
  }
  return value;
}
