import type { Definitions, Schema } from '../openapi/schema.js';
import { malformedPatch } from './errors.js';
import { cloneJson, hasKey, isJsonMap, type JsonMap, setKey } from '../util/json-value.js';
import { type FieldPatchMeta, PatchSchema } from './patch-meta.js';
import {
  applyMapDirective,
  applyRetainKeys,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  DIRECTIVE_MARKER,
  directiveTarget,
  discardNulls,
  SET_ELEMENT_ORDER_PREFIX,
  withoutDirectives,
} from './smp-directives.js';
import { smpErrors } from './smp-errors.js';
import { deduplicateScalars, findByMergeKey, normalizeElementOrder, partitionByPresence, splitDeleteElements } from './smp-list-order.js';

/**
 * Applies a strategic merge patch (application/strategic-merge-patch+json) to a built-in object, following the
 * API server: lists whose field has patch strategy `merge` are merged by their merge key (lists of primitives
 * become unions), other lists are replaced, maps merge recursively, `null` deletes, and the directives `$patch`,
 * `$retainKeys`, `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>` are honoured. Fields the
 * schema does not describe merge like a JSON merge patch. Inputs are not modified.
 *
 * Throws PatchError with the status Kubernetes answers: 400 for a malformed document or directive format,
 * 422 for lists of lists, 500 (empty reason) for everything else the engine rejects, e.g. a list element that
 * lacks its merge key.
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: Schema, definitions: Definitions): unknown {
  if (patch === null) return cloneJson(original);
  if (!isJsonMap(patch)) {
    throw malformedPatch(
      `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : jsonScalarKind(patch)} into Go value of type map[string]interface {}`,
    );
  }
  const lookup = new PatchSchema(definitions);
  const target = isJsonMap(original) ? cloneJson(original) : {};
  return mergeMap(target, cloneJson(patch), lookup.resolve(schema), lookup);
}

function mergeMap(original: JsonMap, patch: JsonMap, schema: Schema | undefined, lookup: PatchSchema): JsonMap {
  if (hasKey(patch, DIRECTIVE_MARKER)) return applyMapDirective(patch);
  applyRetainKeys(original, patch);
  mergeOrderedLists(original, patch, schema, lookup);

  for (const [patchKey, patchValue] of Object.entries(patch)) {
    const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX);
    const key = isDeleteList ? directiveTarget(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX) : patchKey;
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    const current = original[key];
    if (!hasKey(original, key) || valueKind(current) !== valueKind(patchValue)) {
      if (!isDeleteList) takePatchValue(original, key, patchValue);
      continue;
    }
    if (isJsonMap(current) && isJsonMap(patchValue)) {
      const meta = lookup.field(schema, key);
      setKey(original, key, meta.strategy === 'replace' ? patchValue : mergeMap(current, patchValue, meta.schema, lookup));
    } else if (Array.isArray(current) && Array.isArray(patchValue)) {
      setKey(original, key, mergeListField(current, patchValue, lookup.field(schema, key), isDeleteList, lookup));
    } else {
      takePatchValue(original, key, patchValue);
    }
  }
  return original;
}

/** A patch value with nothing to merge into is taken without its nulls and directives. */
function takePatchValue(original: JsonMap, key: string, patchValue: unknown): void {
  discardNulls(patchValue);
  const kept = withoutDirectives(patchValue);
  if (kept === undefined) delete original[key];
  else setKey(original, key, kept.value);
}

function mergeListField(
  original: unknown[],
  patch: unknown[],
  meta: FieldPatchMeta,
  isDeleteList: boolean,
  lookup: PatchSchema,
): unknown[] {
  if (meta.strategy !== 'merge' && !isDeleteList) return patch;
  return mergeList(original, patch, meta, isDeleteList, lookup);
}

function mergeList(original: unknown[], patch: unknown[], meta: FieldPatchMeta, isDeleteList: boolean, lookup: PatchSchema): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const itemsAreMaps = elementKind([original, patch]) === 'map';
  let serverList = original;
  let patchList = patch;
  let merged: unknown[];
  if (!itemsAreMaps) {
    if (isDeleteList) {
      const doomed = new Set(patch);
      return original.filter((v) => !doomed.has(v));
    }
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (meta.mergeKey === '') throw smpErrors.noMergeKeyDeclared(itemTypeName(meta.schema));
    [serverList, patchList] = applyListDirectives(original, patch, meta.mergeKey);
    merged = mergeByKey(serverList, patchList, meta.mergeKey, lookup.items(meta.schema), lookup);
  }
  const [patchItems, serverOnly] = partitionByPresence(merged, patchList, meta.mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, patchList, serverList, meta.mergeKey, itemsAreMaps);
}

/** Handles `$patch` elements of a merging list; returns the server list to merge into and the remaining patch. */
function applyListDirectives(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let server = original;
  let replace = false;
  for (const item of patch as JsonMap[]) {
    if (!hasKey(item, DIRECTIVE_MARKER)) {
      plain.push(item);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === 'delete') {
      if (!hasKey(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
      server = withoutMatching(server, mergeKey, item[mergeKey]);
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw smpErrors.listMergeDirective();
    } else {
      throw smpErrors.unknownPatchType(directive, item);
    }
  }
  return replace ? [plain, []] : [server, plain];
}

function withoutMatching(list: unknown[], mergeKey: string, value: unknown): unknown[] {
  const remaining = [...list];
  for (let at = findByMergeKey(remaining, mergeKey, value); at >= 0; at = findByMergeKey(remaining, mergeKey, value)) {
    remaining.splice(at, 1);
  }
  return remaining;
}

function mergeByKey(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
  itemSchema: Schema | undefined,
  lookup: PatchSchema,
): unknown[] {
  const merged = [...original];
  for (const item of patch as JsonMap[]) {
    if (!hasKey(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    const at = findByMergeKey(merged, mergeKey, item[mergeKey]);
    if (at >= 0) {
      merged[at] = mergeMap(merged[at] as JsonMap, item, itemSchema, lookup);
    } else {
      const kept = withoutDirectives(item);
      if (kept !== undefined) merged.push(kept.value);
    }
  }
  return merged;
}

/** `$setElementOrder/<field>`: merges the field's list (if patched) and imposes the given element order. */
function mergeOrderedLists(original: JsonMap, patch: JsonMap, schema: Schema | undefined, lookup: PatchSchema): void {
  for (const [directiveKey, order] of Object.entries(patch)) {
    if (!directiveKey.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    delete patch[directiveKey];
    if (!Array.isArray(order)) throw smpErrors.expectedSlice(order);
    const key = directiveTarget(directiveKey, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = hasKey(original, key);
    const foundPatch = hasKey(patch, key);
    const serverList = foundOriginal ? asList(original[key]) : [];
    const patchList = foundPatch ? asList(patch[key]) : [];
    const meta = lookup.field(schema, key);
    checkOrderCoversPatch(patchList, order, meta.mergeKey);

    let merged: unknown[];
    if (foundOriginal && foundPatch) merged = mergeListField(serverList, patchList, meta, false, lookup);
    else if (foundPatch) merged = withoutDirectives(patchList)?.value as unknown[];
    else if (foundOriginal) merged = serverList;
    else continue;

    const [patchItems, serverOnly] = partitionByPresence(merged, order, meta.mergeKey);
    if (serverList.length > 0 || patchList.length > 0) {
      const itemsAreMaps = elementKind([serverList, patchList]) === 'map';
      merged = normalizeElementOrder(patchItems, serverOnly, order, serverList, meta.mergeKey, itemsAreMaps);
    }
    setKey(original, key, merged);
    delete patch[key];
  }
}

function asList(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw smpErrors.expectedSlice(value);
  return value;
}

/** The patch's own elements must appear in `$setElementOrder`, in the same relative order. */
function checkOrderCoversPatch(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey === '' ? patchList : splitDeleteElements(patchList)[0];
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p];
    if (isJsonMap(item) && hasKey(item, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (sameMergeKey(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length) throw smpErrors.orderMismatch(patchList, order);
}

function sameMergeKey(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  if (!isJsonMap(left)) throw smpErrors.expectedMap(left);
  if (!isJsonMap(right)) throw smpErrors.expectedMap(right);
  if (!hasKey(left, mergeKey)) throw smpErrors.noMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw smpErrors.noMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

type ValueKind = 'map' | 'list' | 'string' | 'int' | 'float' | 'bool' | 'null';

function valueKind(value: unknown): ValueKind {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (isJsonMap(value)) return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** The common kind of all elements; lists of lists and mixed kinds are rejected like the server does. */
function elementKind(lists: unknown[][]): ValueKind {
  let kind: ValueKind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const current = valueKind(item);
      if (kind === undefined) {
        if (current === 'list') throw smpErrors.listOfLists();
        kind = current;
      } else if (kind !== current) {
        throw smpErrors.elementTypesDiffer(lists);
      }
    }
  }
  if (kind === undefined) throw smpErrors.noElements();
  return kind;
}

function itemTypeName(listSchema: Schema | undefined): string {
  const ref = listSchema?.items?.$ref;
  return ref === undefined ? 'object' : (ref.split('.').pop() ?? ref);
}

function jsonScalarKind(value: unknown): string {
  return typeof value === 'boolean' ? 'bool' : typeof value;
}
