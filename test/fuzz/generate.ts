import { type ActorName, type Actor, NS_A, NS_B, NS_CANARY, NS_PROBE } from './actors.js';
import { type JsonLike, jsonText, malformedJson, malformedYaml, mutateObject, RawJson, validObject } from './bodies.js';
import { PATCH_TYPES, patchBody, patchQuery, UNSUPPORTED_PATCH_TYPES } from './patches.js';
import { Random } from './random.js';
import type { Category, FuzzRequest } from './request.js';
import { ALL_TARGETS, CONFIGMAPS, DEPLOYMENTS, intentOf, NAMESPACES, resourcePath, SECRETS, type Target, WRITABLE } from './targets.js';
import {
  BOOL_PARAMS,
  FIELD_SELECTORS,
  HOSTILE_NAMES,
  NUMBER_PARAMS,
  pickName,
  RESOURCE_VERSIONS,
  SELECTORS,
  VALID_NAMES,
} from './values.js';

// Turns (seed, index) into one hostile request. Everything about request i depends on the seed and i alone, so a
// failure is replayed by regenerating its index.

const CATEGORY_WEIGHTS: readonly (readonly [number, Category])[] = [
  [14, 'json-body'],
  [8, 'yaml-body'],
  [8, 'media-type'],
  [3, 'oversize'],
  [12, 'meta'],
  [14, 'query'],
  [16, 'patch'],
  [10, 'path'],
  [8, 'delete'],
  [7, 'rbac'],
];

/** Names the world keeps present in namespaces A and B. */
export const SEEDS: Readonly<Record<string, readonly string[]>> = {
  configmaps: ['cm-0', 'cm-1', 'cm-2'],
  secrets: ['s-0'],
  deployments: ['d-0'],
};
export const PROBE_NAMES = ['probe-0', 'probe-1'];
/** Namespaces the admin may create and delete: the ones the run depends on are never among them. */
const ADMIN_NAMESPACE_NAMES = ['fz-tmp-0', 'fz-tmp-1', 'fz-tmp-2'];
/**
 * Hostile names minus dot segments and the empty name: an admin request must not climb out of the namespaces it may
 * wreck, nor turn into a request on a whole collection.
 */
const ADMIN_HOSTILE_NAMES = HOSTILE_NAMES.filter((n) => !/^\.*$/.test(n));

interface Shape {
  method: string;
  path: string;
  query?: string[];
  headers?: Record<string, string>;
  body?: Buffer;
  declaredLength?: number;
  chunked?: boolean;
  variant: string;
  intent?: FuzzRequest['intent'];
  probe?: FuzzRequest['probe'];
  /** Set where the query's dryRun does not decide (a DELETE with a body). */
  dryRun?: boolean;
}

interface Context {
  readonly r: Random;
  readonly actor: ActorName;
}

function pickActor(r: Random, category: Category): ActorName {
  // Content is only parsed once authorization passes: most content requests come from users allowed to make them.
  const content: readonly (readonly [number, ActorName])[] = [
    [45, 'admin'],
    [35, 'editor'],
    [8, 'reader'],
    [6, 'nobody'],
    [3, 'anonymous'],
    [3, 'bad-token'],
  ];
  const access: readonly (readonly [number, ActorName])[] = [
    [10, 'admin'],
    [35, 'editor'],
    [20, 'reader'],
    [15, 'nobody'],
    [12, 'anonymous'],
    [8, 'bad-token'],
  ];
  return r.weighted(category === 'path' || category === 'rbac' ? access : content);
}

function namespaceFor({ r, actor }: Context): string {
  if (actor === 'admin')
    return r.weighted([
      [6, NS_A],
      [3, NS_B],
      [1, r.pick(ADMIN_HOSTILE_NAMES)],
    ]);
  if (actor === 'editor')
    return r.weighted([
      [8, NS_A],
      [1, NS_B],
      [2, NS_CANARY],
      [1, r.pick(HOSTILE_NAMES)],
    ]);
  return r.weighted([
    [4, NS_A],
    [2, NS_B],
    [3, NS_CANARY],
    [1, NS_PROBE],
    [1, 'kube-system'],
    [1, r.pick(HOSTILE_NAMES)],
  ]);
}

function nameFor(ctx: Context, t: Target): string {
  const { r, actor } = ctx;
  if (t === NAMESPACES) {
    if (actor === 'admin') return r.chance(0.7) ? r.pick(ADMIN_NAMESPACE_NAMES) : r.pick(ADMIN_HOSTILE_NAMES);
    return r.pick([NS_A, NS_B, NS_CANARY, NS_PROBE, 'kube-system', 'default', ...ADMIN_NAMESPACE_NAMES, pickName(r)]);
  }
  const seeds = SEEDS[t.resource];
  if (seeds !== undefined && r.chance(0.7)) return r.pick(seeds);
  if (ctx.actor !== 'admin' && r.chance(0.3)) return r.pick(['canary-0', 'canary-1', 'canary-s', 'canary-d']);
  return actor === 'admin' ? (r.chance(0.6) ? r.pick(VALID_NAMES) : r.pick(ADMIN_HOSTILE_NAMES)) : pickName(r);
}

/** An object to address: for the admin, half the time one of the probe namespace's, under the harness's watch. */
function objectFor(ctx: Context, t: Target): { namespace: string | undefined; name: string; probe?: FuzzRequest['probe'] } {
  if (ctx.actor === 'admin' && t.kind !== undefined && t !== NAMESPACES && ctx.r.chance(0.5)) {
    const name = ctx.r.pick(PROBE_NAMES);
    return { namespace: NS_PROBE, name, probe: { path: resourcePath(t, NS_PROBE, name), kind: t.kind, name } };
  }
  return { namespace: t.namespaced ? namespaceFor(ctx) : undefined, name: nameFor(ctx, t) };
}

function baseObject(t: Target, name: string, namespace: string | undefined): { [key: string]: JsonLike } {
  return validObject(t.kind ?? 'ConfigMap', name, t.namespaced ? namespace : undefined);
}

/** A create (POST to the collection) or an update (PUT to the object) of `t`, with the body `bodyFor` makes. */
function write(ctx: Context, t: Target, bodyFor: (base: { [key: string]: JsonLike }) => { variant: string; body: Buffer }): Shape {
  const { r } = ctx;
  const update = r.chance(0.4);
  const target = objectFor(ctx, t);
  // A create in the probe namespace makes the probed name, so the probe covers what it may write.
  const bodyName = update || target.probe !== undefined ? target.name : nameFor(ctx, t);
  const made = bodyFor(baseObject(t, bodyName, target.namespace));
  const query: string[] = [];
  if (r.chance(0.2)) query.push(`fieldValidation=${r.pick(['Strict', 'Warn', 'Ignore', 'strict', '', 'x'])}`);
  if (r.chance(0.15)) query.push(`dryRun=${r.pick(['All', 'All', 'all', '', 'x'])}`);
  if (r.chance(0.1)) query.push(`fieldManager=${encodeURIComponent(r.pick(['fz', '', 'x'.repeat(129), '\u0000']))}`);
  if (update) {
    return {
      method: 'PUT',
      path: resourcePath(t, target.namespace, target.name),
      query,
      body: made.body,
      variant: `put/${made.variant}`,
      intent: intentOf('PUT', t, target.namespace, target.name),
      probe: target.probe,
    };
  }
  return {
    method: 'POST',
    path: resourcePath(t, target.namespace),
    query,
    body: made.body,
    variant: `post/${made.variant}`,
    intent: intentOf('POST', t, target.namespace),
    probe: target.probe,
  };
}

function jsonBody(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  const shape = write(ctx, t, (base) =>
    r.chance(0.5) ? malformedJson(r, base) : { variant: 'mutated', body: Buffer.from(jsonText(mutateObject(r, base))) },
  );
  return { ...shape, headers: { 'Content-Type': 'application/json' } };
}

function yamlBody(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  const shape = write(ctx, t, (base) =>
    r.chance(0.7) ? malformedYaml(r, base) : { variant: 'mutated-json-as-yaml', body: Buffer.from(jsonText(mutateObject(r, base))) },
  );
  return {
    ...shape,
    headers: { 'Content-Type': r.pick(['application/yaml', 'application/yaml; charset=utf-8', 'application/apply-patch+yaml']) },
  };
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-16',
  'APPLICATION/JSON',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/cbor',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  '*/*',
  'application/*',
  '',
  'application/json; x',
  'application/json;;;',
  '"application/json"',
  'application/json, text/plain',
  `application/${'x'.repeat(5000)}`,
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
  'application/json; charset="unterminated',
  'application',
  '/',
  ';',
];

const ACCEPTS = [
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
  'application/json;as=Table;v=v2;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=Nope;v=v1;g=meta.k8s.io',
  'application/json;as=Table',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io',
  'text/html',
  'image/png',
  '*/*;q=0',
  'application/json;q=0',
  'application/json;q=abc',
  ',',
  ';',
  'application/json;stream=watch',
  '',
  'application/json, application/yaml;q=0.5',
  `application/${'x'.repeat(5000)}`,
  'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
  'application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Bogus',
  '*/*',
  'application/*',
];

function mediaType(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  if (r.chance(0.5)) {
    const shape = write(ctx, t, (base) => ({
      variant: 'valid',
      body: Buffer.from(r.chance(0.2) ? r.string(r.between(1, 200), '\u0000k8s\u0001abc{}[]"') : jsonText(base)),
    }));
    const contentType = r.pick(CONTENT_TYPES);
    const headers: Record<string, string> = contentType === '' && r.chance(0.5) ? {} : { 'Content-Type': contentType };
    if (r.chance(0.3)) headers.Accept = r.pick(ACCEPTS);
    return { ...shape, headers, variant: `content-type/${shape.method}` };
  }
  const named = r.chance(0.5);
  const target = objectFor(ctx, t);
  const query: string[] = [];
  if (r.chance(0.2)) query.push(`includeObject=${r.pick(['None', 'Metadata', 'Object', 'Bogus', ''])}`);
  const accept = r.pick(ACCEPTS);
  return {
    method: r.chance(0.9) ? 'GET' : 'HEAD',
    path: resourcePath(t, target.namespace, named ? target.name : undefined),
    query,
    headers: { Accept: accept },
    variant: `accept/${named ? 'get' : 'list'}`,
    intent: intentOf('GET', t, target.namespace, named ? target.name : undefined),
  };
}

/** Built once per size: generating megabytes per request would measure the generator. */
const bigBodies = new Map<number, Buffer>();
function bigConfigMap(bytes: number): Buffer {
  let body = bigBodies.get(bytes);
  if (body === undefined) {
    const head = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-big"},"data":{"k":"';
    const tail = '"}}';
    body = Buffer.from(`${head}${'x'.repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`);
    bigBodies.set(bytes, body);
  }
  return body;
}

const LIMIT = 3 * 1024 * 1024;

function oversize(ctx: Context): Shape {
  const { r } = ctx;
  const ns = namespaceFor(ctx);
  const path = resourcePath(CONFIGMAPS, ns);
  const intent = intentOf('POST', CONFIGMAPS, ns);
  const headers = { 'Content-Type': 'application/json' };
  return r.weighted<() => Shape>([
    [3, () => ({ method: 'POST', path, headers, body: bigConfigMap(LIMIT + 1), variant: 'limit+1', intent })],
    [
      2,
      () => ({
        method: 'POST',
        path,
        headers,
        body: bigConfigMap(LIMIT + 512 * 1024),
        chunked: true,
        variant: 'chunked-over-limit',
        intent,
      }),
    ],
    [
      2,
      () => ({
        method: r.pick(['POST', 'PUT', 'PATCH', 'DELETE']),
        path,
        headers,
        body: Buffer.from('{"a":'),
        declaredLength: r.pick([LIMIT + 1, 64 * 1024 * 1024, 2 ** 53 - 1]),
        variant: 'declared-over-limit',
        intent: undefined,
      }),
    ],
    [
      2,
      () => ({
        method: 'POST',
        path,
        headers,
        body: bigConfigMap(1024 * 1024 + r.between(-64, 64)),
        variant: 'configmap-size-edge',
        intent,
      }),
    ],
    [
      1,
      () => ({
        method: 'PATCH',
        path: resourcePath(CONFIGMAPS, ns, 'cm-0'),
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: bigConfigMap(LIMIT + 1),
        variant: 'patch-over-limit',
        intent: intentOf('PATCH', CONFIGMAPS, ns, 'cm-0'),
      }),
    ],
    [
      2,
      () => ({
        method: 'GET',
        path,
        headers: { 'X-Fuzz': 'h'.repeat(r.pick([8 * 1024, 17 * 1024, 64 * 1024])) },
        variant: 'huge-header',
        intent: undefined,
      }),
    ],
  ])();
}

function metadataValues(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(WRITABLE);
  if (r.chance(0.5)) {
    const shape = write(ctx, t, (base) => {
      const copy = structuredClone(base);
      const meta = copy.metadata as { [key: string]: JsonLike };
      const which = r.pick([
        'name',
        'generateName',
        'namespace',
        'labels',
        'annotations',
        'finalizers',
        'ownerReferences',
        'resourceVersion',
        'uid',
      ]);
      switch (which) {
        case 'name':
        case 'namespace':
          meta[which] = pickName(r);
          break;
        case 'generateName':
          delete meta.name;
          meta.generateName = r.pick([...HOSTILE_NAMES, 'fz-', 'x'.repeat(300)]);
          break;
        default:
          return { variant: which, body: Buffer.from(jsonText(mutateObject(r, copy))) };
      }
      return { variant: which, body: Buffer.from(jsonText(copy)) };
    });
    return { ...shape, headers: { 'Content-Type': 'application/json' } };
  }
  // Hostile names and namespaces in the path of reads and deletes.
  const method = r.pick(['GET', 'GET', 'DELETE', 'HEAD']);
  const ns = t.namespaced ? (ctx.actor === 'admin' ? namespaceFor(ctx) : r.chance(0.5) ? pickName(r) : namespaceFor(ctx)) : undefined;
  const name =
    ctx.actor === 'admin' ? (t === NAMESPACES && method === 'DELETE' ? nameFor(ctx, t) : r.pick(ADMIN_HOSTILE_NAMES)) : pickName(r);
  return { method, path: resourcePath(t, ns, name), variant: `path-name/${method}`, intent: intentOf(method, t, ns, name) };
}

function param(r: Random, name: string, values: readonly string[]): string {
  return `${name}=${r.chance(0.9) ? encodeURIComponent(r.pick(values)) : r.pick(values).replace(/[^\x21-\x7e]/g, '_')}`;
}

function hugeQuery(r: Random): string {
  const size = r.pick([8 * 1024, 17 * 1024, 100 * 1024, 900 * 1024]);
  return r.pick([
    `labelSelector=${'a'.repeat(size)}`,
    `labelSelector=${encodeURIComponent(Array.from({ length: Math.floor(size / 8) }, (_, i) => `k${i}=v`).join(','))}`.slice(0, size + 20),
    Array.from({ length: Math.floor(size / 4) }, () => 'x=1').join('&'),
    `fieldSelector=metadata.name%3D${'b'.repeat(size)}`,
  ]);
}

function query(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick(ALL_TARGETS);
  const named = r.chance(0.25);
  const ns = t.namespaced && r.chance(0.85) ? namespaceFor(ctx) : undefined;
  const name = named ? nameFor(ctx, t) : undefined;
  const params: string[] = [];
  const add = (p: number, make: () => string): void => {
    if (r.chance(p)) params.push(make());
  };
  add(0.3, () => param(r, 'labelSelector', SELECTORS));
  add(0.25, () => param(r, 'fieldSelector', FIELD_SELECTORS));
  add(0.25, () => param(r, 'resourceVersion', RESOURCE_VERSIONS));
  add(0.15, () => param(r, 'resourceVersionMatch', ['Exact', 'NotOlderThan', 'exact', '', 'Bogus']));
  add(0.25, () => param(r, 'limit', NUMBER_PARAMS));
  add(0.15, () =>
    param(r, 'continue', [
      '',
      'x',
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJhIn0',
      'eyJ2IjoieCJ9',
      '%%%',
      'a'.repeat(5000),
      Buffer.from('{"v":"meta.k8s.io/v1","rv":-1,"start":"../.."}').toString('base64'),
    ]),
  );
  add(0.15, () => param(r, 'timeoutSeconds', NUMBER_PARAMS));
  add(0.1, () => param(r, 'pretty', BOOL_PARAMS));
  add(0.05, () => param(r, 'allowWatchBookmarks', BOOL_PARAMS));
  add(0.05, () => param(r, 'sendInitialEvents', BOOL_PARAMS));
  add(0.1, () => param(r, r.pick(['bogus', 'LIMIT', 'Watch', '', '=', 'a=b', 'x[]']), ['1', '', 'x']));
  add(0.1, () =>
    r.pick([
      'limit=1&limit=2',
      'watch',
      'limit',
      '&&&',
      '=',
      '==',
      'labelSelector=a&labelSelector=b',
      '%',
      '%zz=1',
      'limit=%zz',
      'a=%ff%fe',
      'labelSelector=a%00b',
      '+=+',
      'limit=1%20',
    ]),
  );
  // Watches stay open until cut: kept rare and mostly short.
  add(0.04, () => `watch=${r.pick(['true', '1', 'false', 'x', ''])}&timeoutSeconds=${r.pick(['1', '0', '-1', 'x'])}`);
  add(0.04, () => hugeQuery(r));
  // The admin's deletes stay in namespace A, which the world restores.
  const method = r.chance(0.85) ? 'GET' : r.pick(['DELETE', 'POST', 'PATCH']);
  if (method === 'DELETE' && ctx.actor === 'admin' && t.namespaced)
    return { method, path: resourcePath(t, NS_A, name), query: params, variant: 'DELETE/admin', intent: undefined };
  const headers: Record<string, string> =
    method === 'GET' ? {} : { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' };
  const body = method === 'GET' ? undefined : Buffer.from(method === 'POST' ? jsonText(baseObject(t, nameFor(ctx, t), ns)) : '{}');
  if (ctx.actor === 'admin' && method !== 'GET' && (t.kind === undefined || (method === 'DELETE' && !t.namespaced)))
    return { method: 'GET', path: resourcePath(t, ns, name), query: params, variant: 'GET/admin' };
  // A query can turn a list into a watch, which RBAC tells apart; users allowed GETs are allowed both.
  const intent = intentOf(method, t, ns, method === 'POST' ? undefined : name);
  return {
    method,
    path: resourcePath(t, ns, method === 'POST' ? undefined : name),
    query: params,
    headers,
    body,
    variant: `${method}/${named ? 'get' : 'list'}`,
    intent,
  };
}

function patch(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick([CONFIGMAPS, CONFIGMAPS, SECRETS, DEPLOYMENTS, DEPLOYMENTS, NAMESPACES]);
  const target = objectFor(ctx, t);
  const contentType = r.chance(0.85) ? r.pick(PATCH_TYPES) : r.pick(UNSUPPORTED_PATCH_TYPES);
  const subresource = t.subresources.length > 0 && r.chance(0.3) ? r.pick(t.subresources) : undefined;
  const apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
  const made = patchBody(
    r,
    contentType,
    subresource === 'scale' ? 'autoscaling/v1' : apiVersion,
    subresource === 'scale' ? 'Scale' : (t.kind ?? 'ConfigMap'),
    target.name,
  );
  const collection = r.chance(0.04);
  return {
    method: 'PATCH',
    // A collection PATCH is unwatched by the probe: it stays out of the probe namespace.
    path: resourcePath(
      t,
      collection && target.probe !== undefined ? NS_A : target.namespace,
      collection ? undefined : target.name,
      subresource,
    ),
    query: patchQuery(r, contentType),
    headers: contentType === '' && r.chance(0.5) ? {} : { 'Content-Type': contentType },
    body: Buffer.from(made.text),
    variant: collection ? 'collection' : `${made.variant}${subresource === undefined ? '' : `/${subresource}`}`,
    intent: collection ? undefined : intentOf('PATCH', t, target.namespace, target.name, subresource),
    probe: collection ? undefined : target.probe,
  };
}

const DOTS = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '..%2f',
  '%2e%2e%2f',
  '..%5c',
  '%c0%ae%c0%ae',
  '%u002e%u002e',
  '..;',
  '...',
];
const DOT = ['.', '%2e', '%2E', '%252e'];

function encodeAll(s: string): string {
  return [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** Dot segments, encodings and malformed paths, aimed past what the user may reach. */
function pathTricks(ctx: Context): Shape {
  const { r, actor } = ctx;
  // The admin's tricks climb from namespace A to B only; everyone else's aim at the canaries.
  const victimNs = actor === 'admin' ? NS_B : r.pick([NS_CANARY, NS_CANARY, NS_B, 'kube-system']);
  const victim = r.pick([
    { t: CONFIGMAPS, name: actor === 'admin' ? 'cm-0' : 'canary-0' },
    { t: SECRETS, name: actor === 'admin' ? 's-0' : 'canary-s' },
    { t: DEPLOYMENTS, name: actor === 'admin' ? 'd-0' : 'canary-d' },
  ]);
  const res = victim.t.resource;
  const prefix = victim.t.group === '' ? '/api/v1' : `/apis/${victim.t.group}/v1`;
  const dots = r.pick(DOTS);
  const dot = r.pick(DOT);
  const path = r.weighted<() => string>([
    [4, () => `${prefix}/namespaces/${NS_A}/${res}/${dots}/${dots}/${victimNs}/${res}/${victim.name}`],
    [2, () => `${prefix}/namespaces/${NS_A}/${dots}/${victimNs}/${res}/${victim.name}`],
    [
      2,
      () =>
        `${prefix}/namespaces/${NS_A}/${res}/cm-0${r.pick(['%2f', '%2F', '%252f'])}..${r.pick(['%2f', '%2F'])}..${r.pick(['%2f', '%2F'])}${victimNs}`,
    ],
    [2, () => `${prefix}/namespaces/${encodeAll(victimNs)}/${res}/${encodeAll(victim.name)}`],
    [1, () => `${prefix.replace('api', r.pick(['%61pi', 'API', 'ap%69']))}/namespaces/${victimNs}/${res}/${victim.name}`],
    [2, () => `${prefix}/${dot}/namespaces/${dot}/${victimNs}/${res}/${victim.name}`],
    [2, () => `${prefix}//namespaces//${victimNs}//${res}//${victim.name}${r.pick(['', '/', '//'])}`],
    [
      2,
      () =>
        `/${r.pick(['healthz', 'readyz', 'livez', 'version', 'openapi/v2', 'metrics', 'api', 'apis'])}/${dots}${prefix}/namespaces/${victimNs}/${res}/${victim.name}`,
    ],
    [
      1,
      () =>
        `${prefix}/namespaces/${victimNs}/${res}/${victim.name}${r.pick([';x=y', '%00', '%', '%zz', '%0', '%ff', '#frag', '\\..\\..', '/.', '/..', '%2f', '?', '?watch=1&timeoutSeconds=1'])}`,
    ],
    [1, () => `${prefix}/namespaces/${NS_A}/${res}/${r.pick(['%', '%zz', '%ff%fe', '%c0%af', '%00', '%2', '%%32%65'])}`],
    [1, () => `${prefix}/namespaces/${NS_A}/${res}/${'a/'.repeat(r.pick([10, 1000]))}`],
    [1, () => `${prefix}/namespaces/${NS_A}/${res}/${'s'.repeat(r.pick([300, 20 * 1024]))}`],
    [
      1,
      () =>
        r.pick([
          `https://127.0.0.1${prefix}/namespaces/${victimNs}/${res}`,
          '*',
          `//evil${prefix}/namespaces/${victimNs}/${res}`,
          `\\${prefix}`,
          `${prefix}/namespaces/${victimNs}/${res}/${victim.name}/${r.pick(['status', 'scale', 'x', 'x/y', '..'])}`,
        ]),
    ],
  ])();
  const method = r.weighted([
    [6, 'GET'],
    [2, 'DELETE'],
    [1, 'PATCH'],
    [1, 'PUT'],
    [1, 'POST'],
    [1, r.pick(['OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'get', 'HEAD'])],
  ]);
  const shape: Shape = { method, path, variant: `${method}` };
  if (method === 'PATCH')
    return {
      ...shape,
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: Buffer.from('{"metadata":{"labels":{"fz-pwned":"1"}}}'),
    };
  if (method === 'PUT' || method === 'POST') {
    const body = jsonText(validObject(victim.t.kind ?? 'ConfigMap', victim.name, undefined));
    return { ...shape, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(body) };
  }
  return shape;
}

/** DeleteOptions in the body and in the query, alone and contradicting each other. */
function deleteOptions(ctx: Context): Shape {
  const { r } = ctx;
  const t = r.pick([CONFIGMAPS, CONFIGMAPS, SECRETS, DEPLOYMENTS, NAMESPACES]);
  // Never a collection of namespaces for the admin.
  const collection = r.chance(0.12) && !(ctx.actor === 'admin' && t === NAMESPACES);
  const target = objectFor(ctx, t);
  const options: { [key: string]: JsonLike } = {};
  const pick = (key: string, p: number, make: () => JsonLike): void => {
    if (r.chance(p)) options[key] = make();
  };
  pick('apiVersion', 0.6, () => r.pick(['v1', 'meta.k8s.io/v1', 'v2', '', 'apps/v1']));
  pick('kind', 0.6, () => r.pick(['DeleteOptions', 'Pod', 'Status', '', 'deleteoptions']));
  pick('propagationPolicy', 0.4, () => r.pick(['Orphan', 'Background', 'Foreground', 'orphan', '', 'Bogus', null, 1]));
  pick('orphanDependents', 0.25, () => r.pick<JsonLike>([true, false, null, 'true', 1]));
  pick('gracePeriodSeconds', 0.3, () =>
    r.pick<JsonLike>([
      0,
      1,
      -1,
      30,
      'x',
      null,
      ...['-9223372036854775809', '9223372036854775807', '1e400', '1.5', '4294967296'].map((n) => new RawJson(n)),
    ]),
  );
  pick('preconditions', 0.25, () =>
    r.pick<JsonLike>([
      { uid: 'nope' },
      { resourceVersion: r.pick(RESOURCE_VERSIONS) },
      { uid: null, resourceVersion: null },
      'x',
      [],
      { uid: 1 },
    ]),
  );
  pick('dryRun', 0.2, () => r.pick<JsonLike>([['All'], ['all'], ['x'], 'All', [], [null]]));
  pick('ignoreStoreReadErrorWithClusterBreakingPotential', 0.05, () => r.pick<JsonLike>([true, 'x']));
  const params: string[] = [];
  if (r.chance(0.3)) params.push(param(r, 'gracePeriodSeconds', NUMBER_PARAMS));
  if (r.chance(0.25)) params.push(param(r, 'propagationPolicy', ['Orphan', 'Background', 'Foreground', 'orphan', '', 'Bogus']));
  if (r.chance(0.2)) params.push(param(r, 'orphanDependents', BOOL_PARAMS));
  if (r.chance(0.15)) params.push(param(r, 'dryRun', ['All', 'all', '', 'x']));
  if (r.chance(0.1)) params.push(param(r, 'preconditions', ['x']));
  if (collection) {
    if (r.chance(0.5)) params.push(param(r, 'labelSelector', SELECTORS));
    if (r.chance(0.3)) params.push(param(r, 'limit', NUMBER_PARAMS));
  }
  const bodyForm = r.weighted<() => { body?: Buffer; contentType?: string; form: string }>([
    [6, () => ({ body: Buffer.from(jsonText(options)), contentType: 'application/json', form: 'json' })],
    [2, () => ({ form: 'none' })],
    [
      1,
      () => ({
        body: Buffer.from(
          `kind: DeleteOptions\napiVersion: v1\npropagationPolicy: ${r.pick(['Orphan', 'Bogus', '[]'])}\ngracePeriodSeconds: ${r.pick(['1', 'x', '1e400'])}\n`,
        ),
        contentType: 'application/yaml',
        form: 'yaml',
      }),
    ],
    [
      1,
      () => ({
        body: Buffer.from(r.pick(['{', '[]', 'null', '1', '"x"', '{"gracePeriodSeconds":1,"gracePeriodSeconds":"x"}'])),
        contentType: 'application/json',
        form: 'malformed',
      }),
    ],
    [
      1,
      () => ({
        body: Buffer.from(jsonText(options)),
        contentType: r.pick(['text/plain', 'application/vnd.kubernetes.protobuf', 'application/merge-patch+json']),
        form: 'media-type',
      }),
    ],
  ])();
  // The admin's collection deletes stay in namespace A (restored by the world); cluster-wide ones are never the admin's.
  const namespace = collection && ctx.actor === 'admin' ? NS_A : target.namespace;
  const name = collection ? undefined : target.name;
  return {
    method: 'DELETE',
    path: resourcePath(t, namespace, name),
    query: params,
    headers: bodyForm.contentType === undefined ? {} : { 'Content-Type': bodyForm.contentType },
    body: bodyForm.body,
    variant: `${collection ? 'collection' : 'object'}/${bodyForm.form}`,
    intent: intentOf('DELETE', t, namespace, name),
    probe: collection ? undefined : target.probe,
    // With a body, DeleteOptions come from it alone: the apiserver reads the query only when the body is empty.
    dryRun:
      bodyForm.body === undefined
        ? params.includes('dryRun=All')
        : bodyForm.form === 'json' && JSON.stringify(options.dryRun) === '["All"]',
  };
}

const NON_RESOURCE = [
  '/api',
  '/apis',
  '/api/v1',
  '/apis/apps/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/version',
  '/healthz',
  '/livez',
  '/readyz',
  '/metrics',
  '/debug/gc/graph?uid=x',
  '/logs',
  '/',
  '/healthz/etcd',
  '/readyz/ping',
  '/nope',
];

/** Plain, well-formed requests across verbs and resources: what RBAC decides for them is known exactly. */
function rbac(ctx: Context): Shape {
  const { r } = ctx;
  if (r.chance(0.15)) return { method: 'GET', path: r.pick(NON_RESOURCE), variant: 'non-resource' };
  const t = r.pick(ALL_TARGETS);
  const picked = r.weighted([
    [5, 'GET'],
    [2, 'POST'],
    [1, 'PUT'],
    [1, 'PATCH'],
    [2, 'DELETE'],
  ]);
  const named = picked === 'PUT' || picked === 'PATCH' || (picked !== 'POST' && r.chance(0.6));
  // The admin writes only kinds the fuzzer knows, and deletes only single objects.
  const method = ctx.actor === 'admin' && (t.kind === undefined || (picked === 'DELETE' && !named)) ? 'GET' : picked;
  const target = objectFor(ctx, t);
  const ns = t.namespaced && (method !== 'GET' || r.chance(0.85)) ? target.namespace : undefined;
  const name = named ? target.name : undefined;
  const body =
    method === 'GET' || method === 'DELETE'
      ? undefined
      : method === 'PATCH'
        ? Buffer.from('{"metadata":{"labels":{"fz":"rbac"}}}')
        : Buffer.from(jsonText(baseObject(t, method === 'POST' ? nameFor(ctx, t) : target.name, ns)));
  const headers: Record<string, string> =
    body === undefined ? {} : { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' };
  return {
    method,
    path: resourcePath(t, ns, name),
    headers,
    body,
    variant: `${method}/${t.resource}`,
    intent: intentOf(method, t, ns, name),
    probe: target.probe !== undefined && name === target.name && ns === NS_PROBE ? target.probe : undefined,
  };
}

const GENERATORS: Readonly<Record<Category, (ctx: Context) => Shape>> = {
  'json-body': jsonBody,
  'yaml-body': yamlBody,
  'media-type': mediaType,
  oversize,
  meta: metadataValues,
  query,
  patch,
  path: pathTricks,
  delete: deleteOptions,
  rbac,
};

/** Request `index` of the run seeded with `seed`. */
export function generateRequest(seed: number, index: number, actorsByName: ReadonlyMap<ActorName, Actor>): FuzzRequest {
  const r = Random.forRequest(seed, index);
  const category = r.weighted(CATEGORY_WEIGHTS);
  const actorName = pickActor(r, category);
  const shape = GENERATORS[category]({ r, actor: actorName });
  const actor = actorsByName.get(actorName);
  const headers: Record<string, string> = { Accept: 'application/json', ...shape.headers };
  if (actor?.token !== undefined) headers.Authorization = `Bearer ${actor.token}`;
  const query = shape.query ?? [];
  const path = query.length === 0 ? shape.path : `${shape.path}${shape.path.includes('?') ? '&' : '?'}${query.join('&')}`;
  return {
    index,
    category,
    variant: shape.variant,
    actor: actorName,
    method: shape.method,
    path,
    headers,
    body: shape.body,
    declaredLength: shape.declaredLength,
    chunked: shape.chunked,
    intent: shape.intent,
    probe: actorName === 'admin' ? shape.probe : undefined,
    dryRun: shape.dryRun ?? (shape.method === 'DELETE' && (shape.body?.length ?? 0) > 0 ? false : query.includes('dryRun=All')),
  };
}
