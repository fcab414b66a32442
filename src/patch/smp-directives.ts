import { hasKey, isJsonMap, type JsonMap, setKey } from '../util/json-value.js';
import { smpErrors } from './smp-errors.js';

export const DIRECTIVE_MARKER = '$patch';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** The field a parallel-list directive key (`$setElementOrder/containers`) refers to. */
export function directiveTarget(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX ? smpErrors.badPrimitiveListFormat() : smpErrors.badSetElementOrderFormat();
  }
  return key.slice(slash + 1);
}

/** `$patch` inside a map: `replace` keeps the patch map as-is, `delete` empties it; other values are errors. */
export function applyMapDirective(patch: JsonMap): JsonMap {
  const directive = patch[DIRECTIVE_MARKER];
  if (directive === 'replace') {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === 'delete') return {};
  throw smpErrors.unknownPatchType(directive, patch);
}

/**
 * `$retainKeys`: drops every key of `original` not listed, after checking that the patch only sets listed keys.
 * Removes the directive from the patch.
 */
export function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!hasKey(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const listed = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(listed)) throw smpErrors.badRetainKeysFormat();
  const retained = new Set<unknown>(listed);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained.has(key)) throw smpErrors.badRetainKeysFormat();
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}

/**
 * Prepares a patch value that is taken as-is (the original has no such field, or one of another type): maps
 * carrying `$patch` disappear, as does the value itself when it is one. Returns undefined when nothing is kept.
 */
export function withoutDirectives(value: unknown): { readonly value: unknown } | undefined {
  if (isJsonMap(value)) {
    if (hasKey(value, DIRECTIVE_MARKER)) return undefined;
    for (const [key, child] of Object.entries(value)) {
      const kept = withoutDirectives(child);
      if (kept === undefined) delete value[key];
      else setKey(value, key, kept.value);
    }
    return { value };
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const child of value) {
      const result = withoutDirectives(child);
      if (result !== undefined) kept.push(result.value);
    }
    return { value: kept };
  }
  return { value };
}

/** Drops null-valued keys at every depth: a null only deletes something that exists in the original. */
export function discardNulls(value: unknown): void {
  if (isJsonMap(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (child === null) delete value[key];
      else discardNulls(child);
    }
  } else if (Array.isArray(value)) {
    value.forEach(discardNulls);
  }
}
