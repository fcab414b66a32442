import { malformedPatch } from './errors.js';
import { cloneJson, isJsonMap, type JsonMap, setKey } from '../util/json-value.js';

/**
 * Applies an RFC 7396 JSON merge patch the way the API server's merge-patch library does: `null` deletes a key,
 * objects merge recursively, anything else (arrays included) replaces. Values taken from the patch lose their
 * null-valued keys. A top-level array patch replaces the document; a `null` or scalar patch is rejected with
 * 400 "Invalid JSON Patch". Inputs are not modified.
 */
export function applyJsonMergePatch(original: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) return pruneNulls(cloneJson(patch));
  if (!isJsonMap(patch)) throw malformedPatch('Invalid JSON Patch');
  const target = isJsonMap(original) ? cloneJson(original) : {};
  mergeInto(target, cloneJson(patch));
  return target;
}

function mergeInto(target: JsonMap, patch: JsonMap): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
      continue;
    }
    const current = target[key];
    if (current === undefined || current === null) {
      setKey(target, key, pruneNulls(value));
    } else if (!isJsonMap(current)) {
      setKey(target, key, pruneNulls(value));
    } else if (isJsonMap(value)) {
      mergeInto(current, value);
    } else {
      setKey(target, key, value);
    }
  }
}

/** Removes null-valued keys from objects, recursing through arrays (null array elements stay). */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    value.forEach(pruneNulls);
  } else if (isJsonMap(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null) delete value[k];
      else pruneNulls(v);
    }
  }
  return value;
}
