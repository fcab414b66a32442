import { isJsonMap, type JsonMap, setKey } from '../util/json-value.js';
import { FieldSet, type PathElement } from './fieldpath.js';
import { DEDUCED, type ListType, type MergeType } from './schema.js';
import { fieldType, indexItems, isLeaf, itemElement } from './typed.js';

/**
 * Merges an applied configuration into a live value (R10.102–R10.105). Neither input is modified; the result
 * shares unchanged subtrees with them.
 */
export function merge(live: unknown, config: unknown, type: MergeType): unknown {
  if (config === undefined) return live;
  if (live === undefined) return config;
  const granularMap = (type.kind === 'map' && !type.atomic) || type.kind === 'deduced';
  const associativeList = type.kind === 'list' && type.listType !== 'atomic';
  // `{}`/null on a granular map and `[]`/null on an associative list add nothing to live content (R10.103).
  if (granularMap && (config === null || (isJsonMap(config) && Object.keys(config).length === 0))) {
    return isJsonMap(live) && Object.keys(live).length > 0 ? live : config;
  }
  if (associativeList && (config === null || (Array.isArray(config) && config.length === 0))) {
    return Array.isArray(live) && live.length > 0 ? live : config;
  }
  if (isLeaf(type, config) || isLeaf(type, live)) return config;
  if (isJsonMap(config) && isJsonMap(live)) {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(live)) setKey(out, k, v);
    for (const [k, v] of Object.entries(config)) {
      setKey(out, k, Object.hasOwn(live, k) ? merge(live[k], v, fieldType(type, k) ?? DEDUCED) : v);
    }
    return out;
  }
  if (type.kind === 'list' && Array.isArray(config) && Array.isArray(live)) return mergeList(live, config, type);
  return config;
}

/** The order of R10.104: live items keep their place unless the configuration orders the shared ones. */
function mergeList(live: readonly unknown[], config: readonly unknown[], type: ListType): unknown[] {
  const elem = type.elem();
  const lpe = live.map((item, i) => itemElement(type, item, i) ?? `i:${i}`);
  const cpe = config.map((item, i) => itemElement(type, item, i) ?? `i:${i}`);
  const inConfig = new Set(cpe);
  const liveGroups = indexItems(type, live);
  const shared = cpe.filter((pe) => liveGroups.has(pe));
  let cursor = 0;
  const emitted = new Set<PathElement>();
  const out: unknown[] = [];
  const emitConfig = (j: number): void => {
    const pe = cpe[j] as PathElement;
    const group = liveGroups.get(pe);
    // Duplicated live items collapse into the configuration's one item (R10.105).
    const counterpart = group !== undefined && group.items.length === 1 ? group.items[0] : undefined;
    out.push(type.listType === 'map' ? merge(counterpart, config[j], elem) : config[j]);
    emitted.add(pe);
    if (shared[cursor] === pe) cursor++;
  };
  let i = 0;
  let j = 0;
  while (i < live.length || j < config.length) {
    if (i < live.length && j < config.length) {
      if (lpe[i] === cpe[j]) {
        emitConfig(j);
        i++;
        j++;
        continue;
      }
      if (inConfig.has(lpe[i] as PathElement) && shared[cursor] !== lpe[i]) {
        i++;
        continue;
      }
    }
    if (i < live.length) {
      const pe = lpe[i] as PathElement;
      if (!inConfig.has(pe)) {
        out.push(live[i]);
        i++;
        continue;
      }
      if (emitted.has(pe)) i++;
    }
    if (j < config.length) {
      emitConfig(j);
      j++;
    }
  }
  return out;
}

/** Marks a node emptied by removals, which then disappears from its parent (R10.100). */
const EMPTIED = Symbol('emptied');

/** The value without the paths that are members of `toRemove` (SMD RemoveItems). */
export function removeItems(value: unknown, toRemove: FieldSet, type: MergeType): unknown {
  const out = removeFrom(value, toRemove, type);
  return out === EMPTIED ? {} : out;
}

function removeFrom(value: unknown, toRemove: FieldSet, type: MergeType): unknown {
  if (toRemove.isEmpty() || isLeaf(type, value)) return value;
  if (isJsonMap(value)) {
    if (Object.keys(value).length === 0) return value;
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) {
      const pe = `f:${k}`;
      if (toRemove.members.has(pe)) continue;
      const sub = toRemove.children.get(pe);
      const nv = sub === undefined ? v : removeFrom(v, sub, fieldType(type, k) ?? DEDUCED);
      if (nv !== EMPTIED) setKey(out, k, nv);
    }
    return Object.keys(out).length === 0 ? EMPTIED : out;
  }
  if (Array.isArray(value) && type.kind === 'list') {
    if (value.length === 0) return value;
    const elem = type.elem();
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = itemElement(type, item, i) ?? `i:${i}`;
      if (toRemove.members.has(pe)) return;
      const sub = toRemove.children.get(pe);
      out.push(sub === undefined ? item : removeFrom(item, sub, elem));
    });
    return out.length === 0 ? EMPTIED : out.map((x) => (x === EMPTIED ? {} : x));
  }
  return value;
}

/** Adds to each level of the set the declared struct fields it has children under (SMD EnsureNamedFieldsAreMembers). */
export function ensureNamedFieldsAreMembers(set: FieldSet, type: MergeType): FieldSet {
  const out = new FieldSet();
  for (const m of set.members) out.members.add(m);
  for (const [pe, child] of set.children) {
    let childType: MergeType = DEDUCED;
    if (pe.startsWith('f:')) {
      const name = pe.slice(2);
      if (type.kind === 'map' && type.declares(name)) out.members.add(pe);
      childType = fieldType(type, name) ?? DEDUCED;
    } else if (type.kind === 'list') {
      childType = type.elem();
    }
    out.attach(pe, ensureNamedFieldsAreMembers(child, childType));
  }
  return out;
}
