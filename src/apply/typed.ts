import { isJsonMap, type JsonMap } from '../util/json-value.js';
import { fieldElement, FieldSet, indexElement, keyElement, type PathElement, pathString, valueElement } from './fieldpath.js';
import { DEDUCED, type ListType, type MergeType } from './schema.js';

/**
 * Walks of a JSON value by its merge type (SMD's typed package): validation with the field set a configuration
 * owns (R10.14, R10.60), and the identity of list items (R10.69). Live objects are walked leniently: content the
 * schema does not declare counts as deduced instead of failing, since a stored object is never refused.
 */

/** What a value is at a node: non-atomic maps and associative lists have children; everything else is a leaf. */
export function isLeaf(type: MergeType, value: unknown): boolean {
  switch (type.kind) {
    case 'scalar':
      return true;
    case 'map':
      return type.atomic || !isJsonMap(value);
    case 'list':
      return type.listType === 'atomic' || !Array.isArray(value);
    case 'deduced':
      return !isJsonMap(value);
  }
}

/** The type of a map's key; deduced content has only deduced children. */
export function fieldType(type: MergeType, name: string): MergeType | undefined {
  if (type.kind === 'map') return type.field(name);
  if (type.kind === 'deduced') return DEDUCED;
  return undefined;
}

export interface ValidationError {
  readonly path: readonly PathElement[];
  readonly message: string;
}

/** SMD's rendering of a list of validation errors: one line, or "errors:" and one indented line each. */
export function formatValidationErrors(errs: readonly ValidationError[]): string {
  const one = (e: ValidationError): string => (e.path.length === 0 ? e.message : `${pathString(e.path)}: ${e.message}`);
  if (errs.length === 1) return one(errs[0] as ValidationError);
  return ['errors:', ...errs.map((e) => `  ${one(e)}`)].join('\n');
}

/** One list item's element; `undefined` with an error pushed when the item cannot be identified. */
export function itemElement(list: ListType, item: unknown, index: number, onError?: (message: string) => void): PathElement | undefined {
  if (list.listType === 'map') {
    if (!isJsonMap(item)) {
      onError?.(item === null ? 'associative list with keys may not have a null element' : 'associative list with keys may not have non-map elements');
      return undefined;
    }
    const fields: [string, unknown][] = [];
    for (const key of list.keys) {
      if (Object.hasOwn(item, key)) fields.push([key, item[key]]);
      else if (list.keyDefaults.has(key)) fields.push([key, list.keyDefaults.get(key)]);
      else {
        onError?.(`element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`);
        return undefined;
      }
    }
    return keyElement(fields);
  }
  if (list.listType === 'set') {
    if (item === null) onError?.('associative list without keys has an element that\'s an explicit null');
    else if (isJsonMap(item)) onError?.("associative list without keys has an element that's a map type");
    else if (Array.isArray(item)) onError?.('not supported: associative list with lists as elements');
    else return valueElement(item);
    return undefined;
  }
  return indexElement(index);
}

/** Go's %v of a value inside SMD's unstructured wrapper, as its type errors print it. */
function humanReadable(v: unknown): string {
  const inner = (x: unknown): string => {
    if (typeof x === 'string') return x;
    if (Array.isArray(x)) return `[${x.map(inner).join(' ')}]`;
    if (isJsonMap(x)) return `map[${Object.keys(x).sort().map((k) => `${k}:${inner(x[k])}`).join(' ')}]`;
    if (x === null) return '<nil>';
    return String(x);
  };
  return `&value.valueUnstructured{Value:${inner(v)}}`;
}

function scalarError(type: MergeType, v: unknown): string | undefined {
  if (type.kind !== 'scalar' || v === null) return undefined;
  switch (type.scalar) {
    case 'numeric':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${humanReadable(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got ${humanReadable(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got ${humanReadable(v)}`;
    default:
      return isJsonMap(v) || Array.isArray(v) ? `expected scalar, got ${humanReadable(v)}` : undefined;
  }
}

/**
 * The field set an applied configuration owns (R10.60) and the schema errors it has (R10.14). With `errors`
 * undefined the walk is lenient (live objects) and returns the set a stored object's fields make up.
 */
export function configFieldSet(value: unknown, type: MergeType, errors?: ValidationError[]): FieldSet {
  const set = new FieldSet();
  walkConfig(value, type, [], set, errors);
  return set;
}

function walkConfig(value: unknown, type: MergeType, path: PathElement[], set: FieldSet, errors: ValidationError[] | undefined): void {
  const fail = (message: string): void => {
    errors?.push({ path: [...path], message });
  };
  if (type.kind === 'scalar') {
    const e = scalarError(type, value);
    if (e !== undefined) fail(e);
    return;
  }
  if (type.kind === 'map' || (type.kind === 'deduced' && isJsonMap(value))) {
    if (value === null || value === undefined) return;
    if (!isJsonMap(value)) {
      fail(`expected map, got ${humanReadable(value)}`);
      return;
    }
    if (type.kind === 'map' && type.atomic) return;
    for (const [key, v] of Object.entries(value)) {
      const pe = fieldElement(key);
      let ft = fieldType(type, key);
      if (ft === undefined) {
        if (errors !== undefined) {
          errors.push({ path: [...path, pe], message: 'field not declared in schema' });
          continue;
        }
        ft = DEDUCED;
      }
      path.push(pe);
      const child = new FieldSet();
      if (isLeaf(ft, v)) {
        const e = ft.kind === 'map' && v !== null && !isJsonMap(v) ? `expected map, got ${humanReadable(v)}` : undefined;
        if (e !== undefined) fail(e);
        else if (ft.kind === 'list' && v !== null && !Array.isArray(v)) fail(`expected list, got ${humanReadable(v)}`);
        else walkConfig(v, ft, path, child, errors);
        set.members.add(pe);
      } else {
        walkConfig(v, ft, path, child, errors);
        const declared = type.kind === 'map' && type.declares(key);
        if (!declared || (isJsonMap(v) && Object.keys(v).length === 0)) set.members.add(pe);
      }
      path.pop();
      set.attach(pe, child);
    }
    return;
  }
  if (type.kind === 'list') {
    if (value === null || value === undefined) return;
    if (!Array.isArray(value)) {
      fail(`expected list, got ${humanReadable(value)}`);
      return;
    }
    if (type.listType === 'atomic') return;
    const elem = type.elem();
    const seen = new Set<PathElement>();
    value.forEach((item, i) => {
      const pe = itemElement(type, item, i, fail);
      if (pe === undefined) return;
      if (seen.has(pe)) {
        if (errors !== undefined) fail(`duplicate entries for key ${pathString([pe])}`);
        return;
      }
      seen.add(pe);
      set.members.add(pe);
      if (type.listType === 'map') {
        path.push(pe);
        const child = new FieldSet();
        walkConfig(item, elem, path, child, errors);
        path.pop();
        set.attach(pe, child);
      } else if (errors !== undefined) {
        const e = scalarError(elem, item);
        if (e !== undefined) errors.push({ path: [...path, pe], message: e });
      }
    });
  }
}

/**
 * A list's items by element. Items sharing a key are one group (R10.64): `dup` marks them, so callers treat the
 * group as a single atomic node.
 */
export interface IndexedItem {
  readonly pe: PathElement;
  readonly items: unknown[];
}

export function indexItems(list: ListType, items: readonly unknown[]): Map<PathElement, IndexedItem> {
  const out = new Map<PathElement, IndexedItem>();
  items.forEach((item, i) => {
    const pe = itemElement(list, item, i) ?? indexElement(i);
    const existing = out.get(pe);
    if (existing === undefined) out.set(pe, { pe, items: [item] });
    else existing.items.push(item);
  });
  return out;
}

/** Every node of a subtree as a member (what a comparison reports for a node that appeared or disappeared). */
export function subtreeSet(value: unknown, type: MergeType): FieldSet {
  const set = new FieldSet();
  if (isLeaf(type, value)) return set;
  if (isJsonMap(value)) {
    for (const [key, v] of Object.entries(value as JsonMap)) {
      const pe = fieldElement(key);
      set.members.add(pe);
      set.attach(pe, subtreeSet(v, fieldType(type, key) ?? DEDUCED));
    }
    return set;
  }
  if (Array.isArray(value) && type.kind === 'list') {
    const elem = type.elem();
    for (const group of indexItems(type, value).values()) {
      set.members.add(group.pe);
      if (group.items.length === 1) set.attach(group.pe, subtreeSet(group.items[0], elem));
    }
  }
  return set;
}

/** Deep equality of JSON values, numbers compared numerically. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isJsonMap(a)) {
    if (!isJsonMap(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
