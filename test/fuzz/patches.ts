import { deepArray, deepObject, hostileValue, type JsonLike, jsonText, RawJson } from './bodies.js';
import type { Random } from './random.js';
import { hostileLabels, NUMBER_TEXTS, pickName } from './values.js';

// Bad patches of every patch type the apiserver takes, plus a few types it does not.

export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;

export const UNSUPPORTED_PATCH_TYPES = [
  'application/apply-patch+cbor',
  'application/json',
  'application/yaml',
  'text/plain',
  'application/json-patch+json; charset=utf-16',
  'application/merge-patch+json;;',
  'application/strategic-merge-patch+json; x="unterminated',
  '',
];

const POINTERS = [
  '',
  '/',
  '/data',
  '/data/k',
  '/data/new',
  '/metadata/labels/a~1b',
  '/metadata/labels/~2',
  '/metadata/labels/~',
  '/metadata/name',
  '/metadata/namespace',
  '/metadata/uid',
  '/metadata/resourceVersion',
  '/metadata/finalizers/-',
  '/metadata/finalizers/0',
  '/metadata/finalizers/99999999999999999999',
  '/metadata/finalizers/-1',
  '/metadata/finalizers/01',
  '/spec/replicas',
  '/spec/template/spec/containers/0/name',
  '/spec/template/spec/containers/1',
  '/kind',
  '/apiVersion',
  'data',
  '/data/k/x',
  '/data//x',
  `/${'a/'.repeat(2000)}b`,
];

function jsonPatch(r: Random): { variant: string; text: string } {
  const op = (): { [key: string]: JsonLike } => {
    const o: { [key: string]: JsonLike } = { op: r.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'ADD', 'nop', '', 'merge']) };
    if (r.chance(0.9)) o.path = r.pick(POINTERS);
    if (r.chance(0.4)) o.from = r.pick(POINTERS);
    if (r.chance(0.7)) o.value = r.chance(0.5) ? hostileValue(r) : r.pick(['v', { a: 'b' }, ['f/x']]);
    return o;
  };
  const cases: readonly [number, string, () => string][] = [
    [4, 'ops', () => jsonText(Array.from({ length: r.between(1, 4) }, op))],
    [1, 'not-array', () => r.pick(['{}', '{"op":"add","path":"/a","value":1}', 'null', '"x"', '1'])],
    [1, 'op-not-object', () => r.pick(['[1]', '[null]', '["add"]', '[[]]'])],
    [1, 'missing-path', () => '[{"op":"add","value":1}]'],
    [1, 'path-wrong-type', () => `[{"op":"add","path":${jsonText(hostileValue(r))},"value":1}]`],
    [1, 'move-into-self', () => '[{"op":"move","from":"/metadata","path":"/metadata/labels"}]'],
    [1, 'remove-root', () => '[{"op":"remove","path":""}]'],
    [1, 'replace-root', () => `[{"op":"replace","path":"","value":${jsonText(hostileValue(r))}}]`],
    [1, 'copy-amplify', () => jsonText(Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` })))],
    [
      1,
      'copy-doubling',
      () =>
        jsonText(
          Array.from({ length: 40 }, () => ({ op: 'copy', from: '/data', path: '/data/d' })).concat([
            { op: 'copy', from: '/metadata', path: '/metadata/labels' },
          ]),
        ),
    ],
    [1, 'many-ops', () => jsonText(Array.from({ length: 20_000 }, (_, i) => ({ op: 'add', path: `/data/k${i}`, value: 'v' })))],
    [1, 'deep-value', () => `[{"op":"add","path":"/data/x","value":${deepArray(r.pick([1000, 100_000]))}}]`],
    [1, 'test-fail', () => '[{"op":"test","path":"/data/k","value":"nope"},{"op":"remove","path":"/data"}]'],
    [1, 'partial-fail', () => '[{"op":"add","path":"/data/half","value":"x"},{"op":"remove","path":"/no/such"}]'],
    [1, 'number-index', () => `[{"op":"add","path":"/metadata/finalizers/${r.pick(NUMBER_TEXTS)}","value":"a/b"}]`],
  ];
  const [, variant, make] = r.weighted(cases.map((c) => [c[0], c] as const));
  return { variant: `json-patch/${variant}`, text: make() };
}

function mergePatch(r: Random, kind: 'merge' | 'strategic'): { variant: string; text: string } {
  const base: readonly [number, string, () => string][] = [
    [
      3,
      'fields',
      () =>
        jsonText({ metadata: { labels: hostileLabels(r), ...(r.chance(0.2) ? { name: pickName(r) } : {}) }, data: { k: hostileValue(r) } }),
    ],
    [1, 'root-not-object', () => r.pick(['null', '[]', '1', '"x"', 'true'])],
    [1, 'null-metadata', () => '{"metadata":null}'],
    [
      1,
      'set-immutable',
      () => jsonText({ metadata: { uid: 'x', creationTimestamp: hostileValue(r), namespace: 'fz-canary', name: 'other' } }),
    ],
    [
      1,
      'deletion-fields',
      () =>
        jsonText({
          metadata: { deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: new RawJson(r.pick(NUMBER_TEXTS)) },
        }),
    ],
    [1, 'deep', () => `{"data":${deepObject(r.pick([1000, 100_000]))}}`],
    [
      1,
      'finalizers',
      () => jsonText({ metadata: { finalizers: [r.pick(['kubernetes', 'orphan', 'a/b', 'bad name', '', 'foregroundDeletion'])] } }),
    ],
    [1, 'kind-change', () => jsonText({ kind: r.pick(['Secret', 'Status', '', 'x']), apiVersion: r.pick(['v2', 'apps/v1', '', '/']) })],
    [1, 'replicas', () => `{"spec":{"replicas":${r.pick(NUMBER_TEXTS)}}}`],
  ];
  const strategic: readonly [number, string, () => string][] = [
    [1, 'unknown-directive', () => jsonText({ metadata: { $patch: r.pick(['delete', 'replace', 'merge', 'nope', 1]) } })],
    [1, 'root-directive', () => jsonText({ $patch: r.pick(['delete', 'replace', 'bogus']) })],
    [1, 'retain-keys', () => jsonText({ spec: { $retainKeys: hostileValue(r) }, data: { $retainKeys: ['x'] } })],
    [
      1,
      'set-element-order',
      () =>
        jsonText({
          metadata: { '$setElementOrder/finalizers': hostileValue(r) },
          spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'x' }, 1] } } },
        }),
    ],
    [
      1,
      'delete-from-primitive-list',
      () =>
        jsonText({ metadata: { '$deleteFromPrimitiveList/finalizers': hostileValue(r) }, data: { '$deleteFromPrimitiveList/k': ['v'] } }),
    ],
    [
      1,
      'list-directive',
      () =>
        jsonText({
          spec: {
            template: { spec: { containers: [{ $patch: r.pick(['delete', 'replace', 'bogus']), name: r.chance(0.5) ? 'c' : null }] } },
          },
        }),
    ],
    [1, 'list-without-merge-key', () => '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}'],
    [1, 'list-as-map', () => '{"spec":{"template":{"spec":{"containers":{"name":"c"}}}}}'],
  ];
  const cases = kind === 'strategic' ? [...base, ...strategic] : base;
  const [, variant, make] = r.weighted(cases.map((c) => [c[0], c] as const));
  return { variant: `${kind}-patch/${variant}`, text: make() };
}

function applyPatch(r: Random, apiVersion: string, kind: string, name: string): { variant: string; text: string } {
  const cases: readonly [number, string, () => string][] = [
    [2, 'valid', () => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${JSON.stringify(name)}\ndata:\n  k: applied\n`],
    [1, 'wrong-name', () => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${JSON.stringify(pickName(r))}\n`],
    [
      1,
      'wrong-kind',
      () =>
        `apiVersion: ${r.pick(['v1', 'apps/v1', 'v2', '', 'x/y/z'])}\nkind: ${r.pick(['Secret', 'Status', '', 'List'])}\nmetadata:\n  name: ${name}\n`,
    ],
    [1, 'missing-type', () => `metadata:\n  name: ${name}\n`],
    [
      1,
      'managed-fields',
      () => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n  managedFields: ${jsonText(hostileValue(r))}\n`,
    ],
    [1, 'not-an-object', () => r.pick(['- a', '1', '~', '', '"x"'])],
    [1, 'json-body', () => jsonText({ apiVersion, kind, metadata: { name, labels: hostileLabels(r) } })],
    [
      1,
      'alias-bomb',
      () =>
        `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\nx: &a [1,1,1,1,1,1,1,1,1,1]\ny: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nz: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nw: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n`,
    ],
    [
      1,
      'deep',
      () => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\ndata: ${deepArray(r.pick([1000, 100_000]))}\n`,
    ],
  ];
  const [, variant, make] = r.weighted(cases.map((c) => [c[0], c] as const));
  return { variant: `apply-patch/${variant}`, text: make() };
}

/** A patch body for `contentType`, bad more often than not. */
export function patchBody(
  r: Random,
  contentType: string,
  apiVersion: string,
  kind: string,
  name: string,
): { variant: string; text: string } {
  if (contentType === 'application/json-patch+json') return jsonPatch(r);
  if (contentType === 'application/merge-patch+json') return mergePatch(r, 'merge');
  if (contentType === 'application/strategic-merge-patch+json') return mergePatch(r, 'strategic');
  if (contentType === 'application/apply-patch+yaml') return applyPatch(r, apiVersion, kind, name);
  return { variant: 'unsupported-type', text: '{"metadata":{"labels":{"a":"b"}}}' };
}

/** Query parameters patches take, with hostile values. */
export function patchQuery(r: Random, contentType: string): string[] {
  const params: string[] = [];
  if (contentType === 'application/apply-patch+yaml' ? r.chance(0.7) : r.chance(0.2)) {
    params.push(`fieldManager=${encodeURIComponent(r.pick(['fz', '', 'x'.repeat(129), 'kubectl', 'ü', 'a\u0000']))}`);
  }
  if (r.chance(0.3)) params.push(`force=${r.pick(['true', 'false', '', 'x', '1'])}`);
  if (r.chance(0.2)) params.push(`fieldValidation=${r.pick(['Strict', 'Warn', 'Ignore', 'strict', '', 'bogus'])}`);
  if (r.chance(0.15)) params.push(`dryRun=${r.pick(['All', 'all', '', 'x'])}`);
  return params;
}
