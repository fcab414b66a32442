import { NS_A, NS_PROBE } from './actors.js';
import { type JsonLike, jsonText, RawJson } from './bodies.js';
import { baseObject, type Context, nameFor, objectFor, type Shape } from './generate-context.js';
import { param } from './generate-urls.js';
import { PATCH_TYPES, patchBody, patchQuery, UNSUPPORTED_PATCH_TYPES } from './patches.js';
import { ALL_TARGETS, CONFIGMAPS, DEPLOYMENTS, intentOf, NAMESPACES, resourcePath, SECRETS } from './targets.js';
import { BOOL_PARAMS, NUMBER_PARAMS, RESOURCE_VERSIONS, SELECTORS } from './values.js';

// Requests by verb: patches, DeleteOptions, and the plain requests whose RBAC answer is known exactly.

export function patch(ctx: Context): Shape {
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

/** DeleteOptions in the body and in the query, alone and contradicting each other. */
export function deleteOptions(ctx: Context): Shape {
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
export function rbac(ctx: Context): Shape {
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
