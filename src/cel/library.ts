import { RE2JS } from '@bufbuild/re2';
import type { Environment } from '@marcbachmann/cel-js';
import { format, quote } from './format.js';

/**
 * The Kubernetes CEL libraries Cascade adds to cel-js (R11.130, R11.131, R11.136): lists, regex `find`/`findAll`,
 * the strings-extension functions cel-js lacks, and sets. cel-js already has the rest of strings v2 (`indexOf`,
 * `lastIndexOf`, `lowerAscii`, `upperAscii`, `split`, `substring`, `trim`, `join`) and `matches`.
 */

type Comparable = bigint | number | string | boolean;

/** Kubernetes' list functions take every comparable element type; one overload per type keeps the checker exact. */
const COMPARABLE = ['int', 'uint', 'double', 'string', 'bool', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'] as const;

function keyOf(v: unknown): Comparable {
  if (v instanceof Date) return v.getTime();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  if (typeof v === 'object' && v !== null && 'value' in v) return (v as { value: bigint }).value;
  if (typeof v === 'object' && v !== null && 'seconds' in v) {
    const d = v as { seconds: bigint | number; nanos: number };
    return Number(d.seconds) * 1e9 + d.nanos;
  }
  return v as Comparable;
}

function compare(a: unknown, b: unknown): number {
  const x = keyOf(a);
  const y = keyOf(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function extreme(list: readonly unknown[], sign: number, name: string): unknown {
  if (list.length === 0) throw new Error(`${name}(list) argument must not be empty`);
  let best = list[0];
  for (const v of list) if (compare(v, best) * sign > 0) best = v;
  return best;
}

function indexOf(list: readonly unknown[], x: unknown, last: boolean): bigint {
  const k = keyOf(x);
  if (last) {
    for (let i = list.length - 1; i >= 0; i--) if (keyOf(list[i]) === k) return BigInt(i);
    return -1n;
  }
  for (let i = 0; i < list.length; i++) if (keyOf(list[i]) === k) return BigInt(i);
  return -1n;
}

const RE2_CACHE_SIZE = 256;
const re2Cache = new Map<string, RE2JS>();

/** RE2 (linear time, Kubernetes' syntax), compiled once per pattern; an invalid pattern is a runtime error. */
function re2(pattern: string): RE2JS {
  let re = re2Cache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (err) {
      throw new Error(`invalid regex: ${(err as Error).message}`);
    }
    if (re2Cache.size >= RE2_CACHE_SIZE) re2Cache.clear();
    re2Cache.set(pattern, re);
  }
  return re;
}

/**
 * `find`/`findAll` need match positions, which the RE2 engine at hand does not report, so they run on JavaScript's
 * engine after RE2 has accepted the pattern's syntax and confirmed a match exists (see docs/cel.md for the limit).
 */
function compileRegex(re: string, global: boolean): RegExp {
  re2(re);
  return new RegExp(re, global ? 'gu' : 'u');
}

/** The name `matches` calls are renamed to (compile.ts), so they run on RE2 instead of cel-js's RegExp. */
export const RE2_MATCHES = 'matchesRE2';

function registerLists(env: Environment): void {
  for (const t of COMPARABLE) {
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: unknown[]) => l.every((v, i) => i === 0 || compare(l[i - 1], v) <= 0));
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: unknown[]) => extreme(l, -1, 'min'));
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: unknown[]) => extreme(l, 1, 'max'));
  }
  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n));
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
  env.registerFunction('list<A>.indexOf(A): int', (l: unknown[], x: unknown) => indexOf(l, x, false));
  env.registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], x: unknown) => indexOf(l, x, true));
}

function findAll(s: string, re: string): string[] {
  if (!re2(re).test(s)) return [];
  return [...s.matchAll(compileRegex(re, true))].map((m) => m[0]);
}

function registerRegex(env: Environment): void {
  env.registerFunction(`string.${RE2_MATCHES}(string): bool`, (s: string, re: string) => re2(re).test(s));
  env.registerFunction('matches(string, string): bool', (s: string, re: string) => re2(re).test(s));
  env.registerFunction('string.find(string): string', (s: string, re: string) => (re2(re).test(s) ? (compileRegex(re, false).exec(s)?.[0] ?? '') : ''));
  env.registerFunction('string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, re: string, n: bigint) => {
    const all = findAll(s, re);
    return n < 0n ? all : all.slice(0, Number(n));
  });
}

/** cel-go strings v2 semantics: indexes count code points, not UTF-16 units. */
function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to));
  env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
    if (n < 0n) return s.split(from).join(to);
    let out = '';
    let rest = s;
    for (let i = 0n; i < n; i++) {
      const at = rest.indexOf(from);
      if (at < 0) break;
      out += rest.slice(0, at) + to;
      rest = rest.slice(at + from.length);
      if (from === '') {
        out += rest.slice(0, 1);
        rest = rest.slice(1);
      }
    }
    return out + rest;
  });
  env.registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''));
  env.registerFunction('string.format(list<A>): string', (s: string, args: unknown[]) => format(s, args));
  env.registerType('StringsNamespace', { ctor: StringsNamespace, fields: {} });
  env.registerConstant('strings', 'StringsNamespace', new StringsNamespace());
  env.registerFunction('StringsNamespace.quote(string): string', (_n: unknown, s: string) => quote(s));
}

class StringsNamespace {}

class SetsNamespace {}

function contains(a: readonly unknown[], b: readonly unknown[]): boolean {
  const keys = new Set(a.map(keyOf));
  return b.every((x) => keys.has(keyOf(x)));
}

function registerSets(env: Environment): void {
  env.registerType('SetsNamespace', { ctor: SetsNamespace, fields: {} });
  env.registerConstant('sets', 'SetsNamespace', new SetsNamespace());
  env.registerFunction('SetsNamespace.contains(list<A>, list<A>): bool', (_n: unknown, a: unknown[], b: unknown[]) => contains(a, b));
  env.registerFunction('SetsNamespace.equivalent(list<A>, list<A>): bool', (_n: unknown, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a));
  env.registerFunction('SetsNamespace.intersects(list<A>, list<A>): bool', (_n: unknown, a: unknown[], b: unknown[]) => {
    const keys = new Set(a.map(keyOf));
    return b.some((x) => keys.has(keyOf(x)));
  });
}

/** Adds every library above to `env` (once, before it is cloned). */
export function registerKubernetesLibraries(env: Environment): Environment {
  registerLists(env);
  registerRegex(env);
  registerStrings(env);
  registerSets(env);
  return env;
}
