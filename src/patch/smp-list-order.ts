import { hasKey, isJsonMap, type JsonMap } from '../util/json-value.js';
import { DIRECTIVE_MARKER } from './smp-directives.js';
import { smpErrors } from './smp-errors.js';

/**
 * Element ordering of merged lists. Items named by the patch (or by `$setElementOrder`) keep the patch's order;
 * items only on the server keep theirs; the two runs interleave by server position where both are known, and an
 * item unknown to the server comes first — which is why a container added by a patch lands at the front.
 */
export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  itemsAreMaps: boolean,
): unknown[] {
  const sortedPatch = sortByOrder(patchItems, patchOrder, mergeKey, itemsAreMaps);
  const sortedServer = sortByOrder(serverOnly, serverOrder, mergeKey, itemsAreMaps);
  return interleave(sortedServer, sortedPatch, serverOrder, mergeKey, itemsAreMaps);
}

/** Splits `merged` into the items present in `partitionBy` and the rest, keeping their relative order. */
export function partitionByPresence(merged: unknown[], partitionBy: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const present: unknown[] = [];
  const absent: unknown[] = [];
  if (mergeKey === '') {
    const wanted = new Set(partitionBy);
    for (const item of merged) (wanted.has(item) ? present : absent).push(item);
    return [present, absent];
  }
  for (const item of merged) {
    if (!isJsonMap(item)) throw smpErrors.expectedMap(item);
    if (!hasKey(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    (findByMergeKey(partitionBy, mergeKey, item[mergeKey]) >= 0 ? present : absent).push(item);
  }
  return [present, absent];
}

/** Index of the first map whose merge key equals `value`, or -1. Every element must be a map. */
export function findByMergeKey(list: unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isJsonMap(item)) throw smpErrors.notAMapAt(i);
    if (hasKey(item, mergeKey) && item[mergeKey] === value) return i;
  }
  return -1;
}

/** Splits off the `$patch: delete` elements of a list of maps. */
export function splitDeleteElements(list: unknown[]): [JsonMap[], JsonMap[]] {
  const kept: JsonMap[] = [];
  const deleted: JsonMap[] = [];
  for (const item of list) {
    if (!isJsonMap(item)) throw smpErrors.expectedMap(item);
    (hasKey(item, DIRECTIVE_MARKER) && item[DIRECTIVE_MARKER] === 'delete' ? deleted : kept).push(item);
  }
  return [kept, deleted];
}

/** Removes later duplicates, filling each gap with the current last element (the order is fixed up afterwards). */
export function deduplicateScalars(values: unknown[]): unknown[] {
  const s = [...values];
  let last = s.length - 1;
  for (let i = 0; i < last; i++) {
    for (let j = i + 1; j <= last; j++) {
      if (s[i] === s[j]) {
        s[j] = s[last];
        s.length = last;
        last--;
        j--;
      }
    }
  }
  return s;
}

function sortByOrder(toSort: unknown[], order: unknown[], mergeKey: string, itemsAreMaps: boolean): unknown[] {
  let sortable: unknown[] = [...toSort];
  let deletions: unknown[] = [];
  if (itemsAreMaps) {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isJsonMap(item)) throw smpErrors.expectedMap(item);
        if (!hasKey(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
      }
    }
    [sortable, deletions] = splitDeleteElements(toSort);
  }
  const less = (a: unknown, b: unknown): boolean => {
    const ia = positionIn(order, a, mergeKey, itemsAreMaps);
    const ib = positionIn(order, b, mergeKey, itemsAreMaps);
    return ia >= 0 && ib >= 0 ? ia < ib : true;
  };
  // Insertion sort: stable, and for the partially-known comparator above it behaves like the server's sort.
  for (let i = 1; i < sortable.length; i++) {
    for (let j = i; j > 0 && less(sortable[j], sortable[j - 1]); j--) {
      const tmp = sortable[j];
      sortable[j] = sortable[j - 1];
      sortable[j - 1] = tmp;
    }
  }
  return [...sortable, ...deletions];
}

function interleave(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, itemsAreMaps: boolean): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) {
      out.push(right[j++]);
    } else if (j >= right.length) {
      out.push(left[i++]);
    } else {
      const li = positionIn(serverOrder, left[i], mergeKey, itemsAreMaps);
      const ri = positionIn(serverOrder, right[j], mergeKey, itemsAreMaps);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function positionIn(list: unknown[], item: unknown, mergeKey: string, itemsAreMaps: boolean): number {
  const key = (v: unknown): unknown => (itemsAreMaps ? (isJsonMap(v) ? (v[mergeKey] ?? null) : null) : v);
  const wanted = key(item);
  return list.findIndex((v) => key(v) === wanted);
}
