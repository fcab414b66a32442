import type { Random } from './random.js';
import { hostileLabels, NUMBER_TEXTS, pickName, RESOURCE_VERSIONS } from './values.js';

// Request bodies: well-formed objects of the fuzzed kinds, objects with fields swapped for hostile values, and text
// that is not well-formed at all (broken JSON and YAML, deep nesting, invalid encodings, duplicate keys).

/** A number (or any text) written into JSON verbatim, e.g. 1e400 or a 400-digit integer. */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export type JsonLike = null | boolean | number | string | RawJson | JsonLike[] | { [key: string]: JsonLike };

export function jsonText(value: JsonLike): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export type Kind = 'ConfigMap' | 'Secret' | 'Deployment' | 'Namespace';

/** A valid object of `kind`: the base every hostile variation starts from. */
export function validObject(kind: Kind, name: string, namespace?: string): { [key: string]: JsonLike } {
  const metadata: { [key: string]: JsonLike } = { name };
  if (namespace !== undefined) metadata.namespace = namespace;
  switch (kind) {
    case 'ConfigMap':
      return { apiVersion: 'v1', kind, metadata, data: { k: 'v' } };
    case 'Secret':
      return { apiVersion: 'v1', kind, metadata, type: 'Opaque', data: { k: 'dg==' } };
    case 'Namespace':
      return { apiVersion: 'v1', kind, metadata };
    case 'Deployment':
      return {
        apiVersion: 'apps/v1',
        kind,
        metadata,
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'fz' } },
          template: { metadata: { labels: { app: 'fz' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      };
  }
}

/** A value of a type no schema expects at the place it lands. */
export function hostileValue(r: Random): JsonLike {
  return r.weighted<() => JsonLike>([
    [3, () => new RawJson(r.pick(NUMBER_TEXTS))],
    [1, () => null],
    [1, () => r.chance(0.5)],
    [1, () => ''],
    [1, () => 'x'.repeat(r.pick([63, 64, 253, 254, 70_000]))],
    [1, () => []],
    [1, () => ({})],
    [1, () => [null, 1, 'a', {}]],
    [1, () => ({ $patch: 'delete' })],
    [1, () => pickName(r)],
    [1, () => r.pick(RESOURCE_VERSIONS)],
    [1, () => '\u0000\uFFFF\uD800'],
  ])();
}

/** Paths (as key lists) in objects of every fuzzed kind where hostile values do the most harm. */
const FIELD_PATHS: readonly (readonly string[])[] = [
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
  ['metadata', 'labels'],
  ['metadata', 'annotations'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'uid'],
  ['metadata', 'generation'],
  ['metadata', 'creationTimestamp'],
  ['metadata', 'deletionTimestamp'],
  ['metadata', 'deletionGracePeriodSeconds'],
  ['metadata', 'finalizers'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'managedFields'],
  ['data'],
  ['data', 'k'],
  ['stringData'],
  ['binaryData'],
  ['immutable'],
  ['type'],
  ['spec'],
  ['spec', 'replicas'],
  ['spec', 'selector'],
  ['spec', 'template', 'spec', 'containers'],
  ['spec', 'finalizers'],
  ['status'],
];

function setPath(target: { [key: string]: JsonLike }, path: readonly string[], value: JsonLike): void {
  let node: { [key: string]: JsonLike } = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next) || next instanceof RawJson) node[key] = {};
    node = node[key] as { [key: string]: JsonLike };
  }
  node[path[path.length - 1] as string] = value;
}

/** `base` with one to three fields replaced by hostile values (labels get hostile keys and values). */
export function mutateObject(r: Random, base: { [key: string]: JsonLike }): { [key: string]: JsonLike } {
  const copy = structuredClone(base);
  const n = r.between(1, 3);
  for (let i = 0; i < n; i++) {
    const path = r.pick(FIELD_PATHS);
    const leaf = path[path.length - 1];
    if ((leaf === 'labels' || leaf === 'annotations') && r.chance(0.7)) setPath(copy, path, hostileLabels(r));
    else if (leaf === 'ownerReferences' && r.chance(0.7))
      setPath(copy, path, [
        {
          apiVersion: 'v1',
          kind: r.pick(['ConfigMap', 'Event', '']),
          name: pickName(r),
          uid: r.pick(['', 'u', '1-2-3']),
          controller: hostileValue(r),
        },
      ]);
    else setPath(copy, path, hostileValue(r));
  }
  return copy;
}

export function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

export function deepObject(depth: number, key = 'a'): string {
  return `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** JSON text that is broken, or valid in ways decoders get wrong. */
export function malformedJson(r: Random, base: { [key: string]: JsonLike }): { variant: string; body: Buffer } {
  const text = jsonText(base);
  const depth = r.pick([100, 1000, 10_000, 100_000, 1_000_000]);
  const cases: readonly [number, string, () => Buffer | string][] = [
    [2, 'truncated', () => text.slice(0, r.int(text.length))],
    [1, 'trailing-garbage', () => `${text}${r.pick(['x', '}', ']', '{}', ' 1', '\u0000', '\n\n{"kind":"Secret"}'])}`],
    [1, 'empty', () => ''],
    [1, 'whitespace', () => ' \n\t '],
    [1, 'scalar-root', () => r.pick(['null', '1', '"s"', 'true', '[]', '[{}]', '-0', '1e999'])],
    [1, 'single-quotes', () => text.replaceAll('"', "'")],
    [1, 'trailing-comma', () => text.replace(/}$/, ',}')],
    [1, 'comment', () => `/* c */${text}`],
    [1, 'nan', () => text.replace(/"k":"v"/, '"k":NaN').replace(/"replicas":1/, '"replicas":NaN')],
    [1, 'bom', () => `\uFEFF${text}`],
    [
      1,
      'invalid-utf8',
      () => Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xff, 0xfe, 0xc0, 0xae]), Buffer.from(text.slice(-2))]),
    ],
    [1, 'utf16', () => Buffer.from(text, 'utf16le')],
    [1, 'lone-surrogate', () => text.replace(/"k":"v"/, '"k":"\\ud800"')],
    [1, 'nul-in-name', () => text.replace(/"name":"/, '"name":"\\u0000')],
    [2, 'duplicate-keys', () => text.replace(/^\{/, `{"metadata":{"name":"${pickName(r)}","namespace":"fz-canary"},"kind":"Secret",`)],
    [1, 'case-variant-keys', () => text.replace(/^\{/, '{"Metadata":{"name":"other"},"KIND":"Secret","ApiVersion":"v2",')],
    [2, 'deep-array', () => text.replace(/"k":"v"/, `"k":${deepArray(depth)}`).replace(/"replicas":1/, `"replicas":${deepArray(depth)}`)],
    [2, 'deep-object', () => text.replace(/\}$/, `,"x":${deepObject(depth)}}`)],
    [1, 'deep-labels', () => text.replace(/"metadata":\{/, `"metadata":{"labels":${deepObject(depth)},`)],
    [1, 'deep-root', () => (r.chance(0.5) ? deepArray(depth) : deepObject(depth))],
    [1, 'many-keys', () => text.replace(/\}$/, `,"data2":{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":"v"`).join(',')}}}`)],
    [1, 'long-string', () => text.replace(/"k":"v"/, `"k":"${'\\u0041'.repeat(200_000)}"`)],
    [1, 'bad-escape', () => text.replace(/"k":"v"/, r.pick(['"k":"\\x41"', '"k":"\\u12"', '"k":"\\"', '"k":"a\nb"']))],
    [
      1,
      'number-edges',
      () => text.replace(/"replicas":1/, `"replicas":${r.pick(NUMBER_TEXTS)}`).replace(/\}$/, `,"n":${r.pick(NUMBER_TEXTS)}}`),
    ],
  ];
  const [, variant, make] = r.weighted(cases.map((c) => [c[0], c] as const));
  const made = make();
  return { variant, body: typeof made === 'string' ? Buffer.from(made) : made };
}

/** YAML that is broken, explosive (aliases), deep, or uses the YAML features JSON has no counterpart for. */
export function malformedYaml(r: Random, base: { [key: string]: JsonLike }): { variant: string; body: Buffer } {
  const name = pickName(r);
  const valid = `apiVersion: ${String(base.apiVersion)}\nkind: ${String(base.kind)}\nmetadata:\n  name: ${JSON.stringify(name)}\ndata:\n  k: v\n`;
  const depth = r.pick([100, 1000, 10_000, 100_000]);
  const cases: readonly [number, string, () => string][] = [
    [2, 'valid', () => valid],
    [1, 'tabs', () => valid.replace(/\n {2}/g, '\n\t')],
    [1, 'bad-indent', () => valid.replace('  k: v', ' k: v\n   j: w')],
    [1, 'unterminated-flow', () => `${valid}extra: {a: [1, 2`],
    [1, 'unterminated-quote', () => valid.replace('k: v', 'k: "v')],
    [
      2,
      'alias-bomb',
      () => {
        const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
        for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(',')}]`);
        return `${valid}bomb:\n  ${lines.join('\n  ')}\n`;
      },
    ],
    [1, 'alias-undefined', () => `${valid}x: *nope\n`],
    [1, 'merge-key', () => `base: &b {name: a}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  <<: *b\n  name: ${JSON.stringify(name)}\n`],
    [
      1,
      'tags',
      () =>
        `${valid}x: ${r.pick(['!!binary "%%%"', '!!python/object:os.system ls', '!custom 1', '!!int "x"', '!!float abc', '!!timestamp 2020-99-99', '!!map []', '!!set {a, b}', '!!omap [a: 1]'])}\n`,
    ],
    [1, 'multi-doc', () => `${valid}---\n${valid}`],
    [1, 'many-docs', () => '---\n'.repeat(r.pick([2, 1000, 100_000]))],
    [1, 'doc-end', () => `...\n${valid}`],
    [1, 'deep-flow', () => `${valid}x: ${deepArray(depth)}\n`],
    [
      1,
      'deep-block',
      () => `${valid}x:\n${Array.from({ length: Math.min(depth, 1500) }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}\n`,
    ],
    [1, 'complex-key', () => `${valid}? [a, b]\n: c\n`],
    [1, 'non-string-keys', () => valid.replace('  k: v', r.pick(['  1: v', '  true: v', '  null: v', '  1.5: v', '  ~: v']))],
    [1, 'duplicate-keys', () => `${valid}metadata:\n  name: other\n  namespace: fz-canary\n`],
    [
      1,
      'yaml11-scalars',
      () =>
        valid.replace(
          'k: v',
          `k: ${r.pick(['yes', 'no', 'on', 'off', '0777', '0x1F', '1_000', '.inf', '-.NaN', '2001-12-14t21:59:43.10-05:00', '~'])}`,
        ),
    ],
    [
      1,
      'replicas-edges',
      () => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: ${r.pick(NUMBER_TEXTS)}\n`,
    ],
    [1, 'json-in-yaml', () => jsonText(base)],
    [1, 'nul', () => `${valid}\u0000`],
    [1, 'directive', () => `%YAML 1.1\n%TAG ! tag:x,2000:\n---\n${valid}`],
    [1, 'scalar-root', () => r.pick(['~', '1', 'x', '[]', '- a', '""', '|\n  x'])],
  ];
  const [, variant, make] = r.weighted(cases.map((c) => [c[0], c] as const));
  return { variant, body: Buffer.from(make()) };
}
