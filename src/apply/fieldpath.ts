import { goQuote } from '../util/go-quote.js';
import { isJsonMap } from '../util/json-value.js';

/**
 * Path elements are kept in their FieldsV1 spelling (R10.32): `f:<name>` (struct field or map key),
 * `k:<json object>` (keyed list item, key fields sorted by name), `v:<json value>` (set item), `i:<index>`
 * (positional item). The spelling is canonical, so two elements are equal exactly when their strings are.
 */
export type PathElement = string;

export const fieldElement = (name: string): PathElement => `f:${name}`;
export const valueElement = (value: unknown): PathElement => `v:${canonicalJson(value)}`;
export const indexElement = (index: number): PathElement => `i:${index}`;

/** `k:{…}` for the given key fields (sorted here, so callers may pass them in schema order). */
export function keyElement(fields: ReadonlyArray<readonly [string, unknown]>): PathElement {
  const sorted = [...fields].sort((a, b) => compareNames(a[0], b[0]));
  return `k:{${sorted.map(([name, value]) => `${JSON.stringify(name)}:${canonicalJson(value)}`).join(',')}}`;
}

/** Compact JSON with object keys sorted, so equal values spell the same element. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonMap(value)) {
    const keys = Object.keys(value).sort(compareNames);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------- ordering (R10.33)

function valueRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isJsonMap(v)) return 4;
  return 5;
}

/** SMD's value order: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) - (b as number);
    case 1:
      return compareNames(a as string, b as string);
    case 2:
      return Number(a) - Number(b);
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length - lb.length;
    }
    case 4:
      return compareKeyFields(Object.entries(a as object), Object.entries(b as object));
    default:
      return 0;
  }
}

function compareKeyFields(a: [string, unknown][], b: [string, unknown][]): number {
  a.sort((x, y) => compareNames(x[0], y[0]));
  b.sort((x, y) => compareNames(x[0], y[0]));
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [na, va] = a[i] as [string, unknown];
    const [nb, vb] = b[i] as [string, unknown];
    const c = compareNames(na, nb) || compareValues(va, vb);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

const KIND_RANK: Readonly<Record<string, number>> = { f: 0, k: 1, v: 2, i: 3 };

/** SMD's PathElement order: field names, then keys, then values, then indexes. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a === b) return 0;
  const ka = KIND_RANK[a[0] ?? ''] ?? 4;
  const kb = KIND_RANK[b[0] ?? ''] ?? 4;
  if (ka !== kb) return ka - kb;
  const ra = a.slice(2);
  const rb = b.slice(2);
  switch (a[0]) {
    case 'f':
      return compareNames(ra, rb);
    case 'k':
      return compareKeyFields(Object.entries(JSON.parse(ra) as object), Object.entries(JSON.parse(rb) as object));
    case 'v':
      return compareValues(JSON.parse(ra), JSON.parse(rb));
    default:
      return Number(ra) - Number(rb);
  }
}

// ---------------------------------------------------------------------------------------------- display

function displayValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  return canonicalJson(v);
}

/** SMD's path notation, as conflict messages print it: `.spec.containers[name="nginx"].image`. */
export function pathString(path: readonly PathElement[]): string {
  let out = '';
  for (const pe of path) {
    const rest = pe.slice(2);
    switch (pe[0]) {
      case 'f':
        out += `.${rest}`;
        break;
      case 'k': {
        const fields = Object.entries(JSON.parse(rest) as object).sort((x, y) => compareNames(x[0], y[0]));
        out += `[${fields.map(([n, v]) => `${n}=${displayValue(v)}`).join(',')}]`;
        break;
      }
      case 'v':
        out += `[=${displayValue(JSON.parse(rest))}]`;
        break;
      default:
        out += `[${rest}]`;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- sets

/**
 * A set of paths as a trie (SMD fieldpath.Set): `members` are the elements at this level that are themselves in
 * the set, `children` the sets below elements (never empty). A path can be a member and have children at once.
 */
export class FieldSet {
  readonly members = new Set<PathElement>();
  readonly children = new Map<PathElement, FieldSet>();

  isEmpty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  insert(path: readonly PathElement[]): void {
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.child(path[i] as PathElement);
    const last = path[path.length - 1];
    if (last !== undefined) node.members.add(last);
  }

  /** The child set under `pe`, created when missing; callers must not leave it empty. */
  child(pe: PathElement): FieldSet {
    let c = this.children.get(pe);
    if (c === undefined) {
      c = new FieldSet();
      this.children.set(pe, c);
    }
    return c;
  }

  /** Attaches `set` under `pe` unless it is empty. */
  attach(pe: PathElement, set: FieldSet): void {
    if (set.isEmpty()) return;
    const existing = this.children.get(pe);
    this.children.set(pe, existing === undefined ? set : existing.union(set));
  }

  has(path: readonly PathElement[]): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      node = node.children.get(path[i] as PathElement);
      if (node === undefined) return false;
    }
    const last = path[path.length - 1];
    return last !== undefined && node.members.has(last);
  }

  /** The set of paths below `pe` (relative to it). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe) ?? EMPTY;
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    for (const m of this.members) out.members.add(m);
    for (const m of other.members) out.members.add(m);
    for (const [pe, c] of this.children) out.children.set(pe, c);
    for (const [pe, c] of other.children) {
      const mine = out.children.get(pe);
      out.children.set(pe, mine === undefined ? c : mine.union(c));
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (other.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe);
      if (o !== undefined) out.attach(pe, c.intersection(o));
    }
    return out;
  }

  /** Paths of this set that are not in `other` (exact paths: a member of `other` leaves the paths below it). */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    for (const m of this.members) if (!other.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe);
      out.attach(pe, o === undefined ? c : c.difference(o));
    }
    return out;
  }

  /** Like difference, but a member of `other` also removes every path below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    for (const m of this.members) if (!other.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      if (other.members.has(pe)) continue;
      const o = other.children.get(pe);
      out.attach(pe, o === undefined ? c : c.recursiveDifference(o));
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.members.size !== other.members.size || this.children.size !== other.children.size) return false;
    for (const m of this.members) if (!other.members.has(m)) return false;
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe);
      if (o === undefined || !c.equals(o)) return false;
    }
    return true;
  }

  /** Every path, depth first: at each level the members (sorted) before the children (sorted) (R10.88). */
  paths(prefix: readonly PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    for (const m of [...this.members].sort(compareElements)) out.push([...prefix, m]);
    for (const pe of [...this.children.keys()].sort(compareElements)) {
      out.push(...(this.children.get(pe) as FieldSet).paths([...prefix, pe]));
    }
    return out;
  }

  static fromPaths(paths: readonly (readonly PathElement[])[]): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.insert(p);
    return set;
  }
}

const EMPTY = new FieldSet();

// ---------------------------------------------------------------------------------------------- FieldsV1

/** The FieldsV1 JSON of a set (R10.31, R10.33): canonical key order, `"."` first for members with children. */
export function encodeFieldsV1(set: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = new Set<PathElement>([...set.members, ...set.children.keys()]);
  for (const pe of [...keys].sort(compareElements)) {
    const child = set.children.get(pe);
    if (child === undefined) {
      out[pe] = {};
      continue;
    }
    const inner: Record<string, unknown> = set.members.has(pe) ? { '.': {} } : {};
    Object.assign(inner, encodeFieldsV1(child));
    out[pe] = inner;
  }
  return out;
}

export class FieldsV1Error extends Error {}

/** Parses FieldsV1 JSON (as stored or as a client wrote it), re-spelling keys canonically. */
export function decodeFieldsV1(json: unknown): FieldSet {
  if (json === undefined || json === null) return new FieldSet();
  if (!isJsonMap(json)) throw new FieldsV1Error('expected an object');
  const set = new FieldSet();
  for (const [key, value] of Object.entries(json)) {
    if (key === '.') continue;
    const pe = parseElement(key);
    if (!isJsonMap(value)) throw new FieldsV1Error(`expected an object for ${key}`);
    const child = decodeFieldsV1(value);
    if (Object.keys(value).length === 0 || Object.hasOwn(value, '.')) set.members.add(pe);
    set.attach(pe, child);
  }
  return set;
}

function parseElement(key: string): PathElement {
  const rest = key.slice(2);
  if (key.startsWith('f:')) return key;
  if (key.startsWith('i:')) {
    if (!/^(0|[1-9][0-9]*)$/.test(rest)) throw new FieldsV1Error(`invalid index ${key}`);
    return key;
  }
  if (key.startsWith('k:') || key.startsWith('v:')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rest);
    } catch {
      throw new FieldsV1Error(`invalid path element ${key}`);
    }
    if (key[0] === 'v') return valueElement(parsed);
    if (!isJsonMap(parsed)) throw new FieldsV1Error(`invalid key ${key}`);
    return keyElement(Object.entries(parsed));
  }
  throw new FieldsV1Error(`unknown path element ${JSON.stringify(key)}`);
}
