import { isJsonMap } from '../util/json-value.js';
import { fieldElement, FieldSet, type PathElement } from './fieldpath.js';
import { DEDUCED, type MergeType } from './schema.js';
import { fieldType, indexItems, isLeaf, jsonEqual, subtreeSet } from './typed.js';

/** Paths that appeared, changed or disappeared between two versions of an object (R10.63). */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

export function isUnchanged(c: Comparison): boolean {
  return c.added.isEmpty() && c.modified.isEmpty() && c.removed.isEmpty();
}

/** Compares two objects (or two values of a granular node) by their merge type. */
export function compare(before: unknown, after: unknown, type: MergeType): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareChildren(before, after, type, c);
  return c;
}

function isEmptyish(v: unknown): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isJsonMap(v) && Object.keys(v).length === 0);
}

function compareChild(pe: PathElement, l: unknown, r: unknown, t: MergeType, c: Comparison): void {
  if (l === undefined && r === undefined) return;
  if (l === undefined) {
    c.added.members.add(pe);
    c.added.attach(pe, subtreeSet(r, t));
    return;
  }
  if (r === undefined) {
    c.removed.members.add(pe);
    c.removed.attach(pe, subtreeSet(l, t));
    return;
  }
  // A node compares as a leaf when it is atomic, or when both sides are empty (so {} vs null is a change).
  if (isLeaf(t, l) || isLeaf(t, r) || (isEmptyish(l) && isEmptyish(r))) {
    if (!jsonEqual(l, r)) c.modified.members.add(pe);
    return;
  }
  const sub: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareChildren(l, r, t, sub);
  c.added.attach(pe, sub.added);
  c.modified.attach(pe, sub.modified);
  c.removed.attach(pe, sub.removed);
}

function compareChildren(l: unknown, r: unknown, t: MergeType, c: Comparison): void {
  if (isJsonMap(l) || isJsonMap(r)) {
    const lm = isJsonMap(l) ? l : {};
    const rm = isJsonMap(r) ? r : {};
    for (const [key, lv] of Object.entries(lm)) compareChild(fieldElement(key), lv, Object.hasOwn(rm, key) ? rm[key] : undefined, fieldType(t, key) ?? DEDUCED, c);
    for (const [key, rv] of Object.entries(rm)) if (!Object.hasOwn(lm, key)) compareChild(fieldElement(key), undefined, rv, fieldType(t, key) ?? DEDUCED, c);
    return;
  }
  if (t.kind !== 'list') return;
  const li = indexItems(t, Array.isArray(l) ? l : []);
  const ri = indexItems(t, Array.isArray(r) ? r : []);
  const elem = t.elem();
  for (const [pe, lg] of li) {
    const rg = ri.get(pe);
    if (rg === undefined) {
      compareChild(pe, lg.items.length === 1 ? lg.items[0] : lg.items, undefined, lg.items.length === 1 ? elem : DEDUCED, c);
    } else if (lg.items.length > 1 || rg.items.length > 1) {
      // Items sharing a key form one atomic group (R10.64).
      if (!jsonEqual(lg.items, rg.items)) c.modified.members.add(pe);
    } else if (t.listType === 'map') {
      compareChild(pe, lg.items[0], rg.items[0], elem, c);
    }
  }
  for (const [pe, rg] of ri) {
    if (!li.has(pe)) compareChild(pe, undefined, rg.items.length === 1 ? rg.items[0] : rg.items, rg.items.length === 1 ? elem : DEDUCED, c);
  }
}
