import { NS_A, NS_B, NS_CANARY } from './actors.js';
import { jsonText, validObject } from './bodies.js';
import { baseObject, type Context, nameFor, namespaceFor, type Shape } from './generate-context.js';
import type { Random } from './random.js';
import { ALL_TARGETS, CONFIGMAPS, DEPLOYMENTS, intentOf, resourcePath, SECRETS } from './targets.js';
import { BOOL_PARAMS, FIELD_SELECTORS, NUMBER_PARAMS, RESOURCE_VERSIONS, SELECTORS } from './values.js';

// Hostile URLs: query parameters and path tricks (dot segments, encodings, malformed paths).

export function param(r: Random, name: string, values: readonly string[]): string {
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

export function query(ctx: Context): Shape {
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
export function pathTricks(ctx: Context): Shape {
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
