import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { buildOpenApiV3, buildOpenApiV3Document, buildOpenApiV3GroupVersion, buildOpenApiV3Index } from './v3.js';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }>; required?: boolean };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  'x-kubernetes-group-version-kind'?: Json;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

const input = { resources: BUILTIN_RESOURCES, definitions: BUILTIN_DEFINITIONS };
const apps = buildOpenApiV3GroupVersion({ group: 'apps', version: 'v1', ...input }) as Doc;
const core = buildOpenApiV3Document('api/v1', input) as Doc;

function refsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.push(v);
      else refsIn(v, into);
    }
  }
  return into;
}

test('the index lists api, apis, every group and every served group-version', () => {
  const index = buildOpenApiV3Index(input);
  const keys = Object.keys(index.paths);
  for (const r of BUILTIN_RESOURCES) {
    assert.ok(keys.includes(r.group === '' ? `api/${r.version}` : `apis/${r.group}/${r.version}`), r.kind);
    if (r.group !== '') assert.ok(keys.includes(`apis/${r.group}`), r.group);
  }
  assert.ok(keys.includes('api') && keys.includes('apis'));
  assert.deepEqual(keys, [...keys].sort());
  assert.match(index.paths['apis/apps/v1']?.serverRelativeURL ?? '', /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
});

test('each index hash is the upper-case SHA-512 of the served bytes', () => {
  const served = buildOpenApiV3(input);
  for (const [key, entry] of Object.entries(served.index.paths)) {
    const doc = served.documents.get(key);
    assert.ok(doc, key);
    const hash = createHash('sha512').update(doc.json).digest('hex').toUpperCase();
    assert.equal(entry.serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
    assert.equal(doc.hash, hash);
  }
  assert.equal(served.documents.get('apis/apps/v1')?.json, JSON.stringify(apps));
});

test('the apps/v1 document holds Deployment and a complete schema closure', () => {
  assert.equal(apps.openapi, '3.0.0');
  const deployment = apps.components.schemas['io.k8s.api.apps.v1.Deployment'];
  assert.ok(deployment);
  assert.deepEqual(deployment['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  for (const name of ['io.k8s.api.core.v1.PodSpec', 'io.k8s.api.core.v1.Container', 'io.k8s.api.autoscaling.v1.Scale']) {
    assert.ok(apps.components.schemas[name], name);
  }
  const refs = refsIn(apps);
  assert.ok(refs.length > 0);
  for (const ref of refs) {
    assert.ok(ref.startsWith('#/components/schemas/'), ref);
    assert.ok(apps.components.schemas[ref.slice('#/components/schemas/'.length)], `dangling ${ref}`);
  }
  assert.equal(apps.components.schemas['io.k8s.api.core.v1.Node'], undefined, 'only referenced schemas');
});

test('references with siblings are wrapped in allOf and patch metadata survives', () => {
  const container = apps.components.schemas['io.k8s.api.core.v1.Container'] as { properties: Record<string, Json> };
  assert.deepEqual(container.properties.resources?.allOf, [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ResourceRequirements' }]);
  const env = container.properties.env as Json;
  assert.equal(env['x-kubernetes-patch-merge-key'], 'name');
  assert.deepEqual(env.items, { $ref: '#/components/schemas/io.k8s.api.core.v1.EnvVar' });
  const ports = container.properties.ports as Json;
  assert.deepEqual(ports['x-kubernetes-list-map-keys'], ['containerPort', 'protocol']);
  assert.equal((container.properties.volumeMounts as Json)['x-kubernetes-patch-merge-key'], 'mountPath');
  const quantity = apps.components.schemas['io.k8s.apimachinery.pkg.api.resource.Quantity'];
  assert.deepEqual(quantity?.oneOf, [{ type: 'string' }, { type: 'number' }]);
});

test('every PATCH operation advertises fieldValidation and strategic merge patch, as kubectl checks', () => {
  for (const doc of [apps, core]) {
    for (const [path, item] of Object.entries(doc.paths)) {
      const patch = item.patch;
      if (patch === undefined) continue;
      assert.ok(patch['x-kubernetes-group-version-kind'], path);
      const names = (patch.parameters ?? []).map((p) => p.name);
      assert.ok(names.includes('fieldValidation'), path);
      assert.ok(patch.requestBody?.content['application/strategic-merge-patch+json'], path);
      assert.equal(patch.requestBody?.required, true);
    }
  }
  const patch = core.paths['/api/v1/namespaces/{namespace}/pods/{name}']?.patch;
  assert.equal(patch?.operationId, 'patchCoreV1NamespacedPod');
  const fieldValidation = patch?.parameters?.find((p) => p.name === 'fieldValidation');
  assert.equal(fieldValidation?.in, 'query');
  assert.deepEqual(fieldValidation?.schema, { type: 'string', uniqueItems: true });
  assert.deepEqual(patch?.responses['200']?.content?.['application/json']?.schema, {
    $ref: '#/components/schemas/io.k8s.api.core.v1.Pod',
  });
});

test('explain finds a kind through the GVK of its list path', () => {
  const list = core.paths['/api/v1/namespaces/{namespace}/pods']?.get;
  assert.deepEqual(list?.['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: 'Pod' });
  const nodes = core.paths['/api/v1/nodes']?.get;
  assert.deepEqual(nodes?.['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: 'Node' });
});

test('discovery root documents and unknown keys', () => {
  const group = buildOpenApiV3Document('apis/apps', input) as Doc;
  assert.equal(group.paths['/apis/apps/']?.get?.operationId, 'getAppsAPIGroup');
  assert.ok(group.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup']);
  const api = buildOpenApiV3Document('api', input) as Doc;
  assert.equal(api.paths['/api/']?.get?.operationId, 'getCoreAPIVersions');
  assert.equal(buildOpenApiV3Document('apis/nothing.example.com/v1', input), undefined);
  assert.equal(buildOpenApiV3Document('apis/apps/v2', input), undefined);
});
