import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { buildOpenApiV2 } from './v2.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { $ref: string };
}
interface Operation {
  operationId: string;
  consumes: string[];
  parameters?: Parameter[];
  responses: Record<string, { schema?: { $ref: string } }>;
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string };
}
interface PathItem {
  get?: Operation;
  post?: Operation;
  put?: Operation;
  patch?: Operation;
  delete?: Operation;
  parameters?: Parameter[];
}
interface Doc {
  swagger: string;
  info: { title: string; version: string };
  paths: Record<string, PathItem>;
  definitions: Record<string, unknown>;
}

const doc = buildOpenApiV2({
  resources: BUILTIN_RESOURCES,
  definitions: BUILTIN_DEFINITIONS,
  version: 'v1.32.0',
}) as Doc;

function op(path: string, method: string): Operation {
  const item = doc.paths[path];
  assert.ok(item, `path ${path}`);
  const operation = item[method as keyof Omit<PathItem, 'parameters'>];
  assert.ok(operation, `${method.toUpperCase()} ${path}`);
  return operation;
}

test('the document is Swagger 2.0 with every definition', () => {
  assert.equal(doc.swagger, '2.0');
  assert.deepEqual(doc.info, { title: 'Kubernetes', version: 'v1.32.0' });
  assert.deepEqual(Object.keys(doc.definitions), Object.keys(BUILTIN_DEFINITIONS));
});

test('every resource has collection, item and watch paths for each of its verbs', () => {
  for (const r of BUILTIN_RESOURCES) {
    const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
    const ns = r.namespaced ? '/namespaces/{namespace}' : '';
    const collection = `${prefix}${ns}/${r.plural}`;
    const item = `${collection}/{name}`;
    const expected: [string, string, string][] = [
      ['list', collection, 'get'],
      ['create', collection, 'post'],
      ['deletecollection', collection, 'delete'],
      ['get', item, 'get'],
      ['update', item, 'put'],
      ['patch', item, 'patch'],
      ['delete', item, 'delete'],
    ];
    for (const [verb, path, method] of expected) {
      const present = doc.paths[path]?.[method as 'get'] !== undefined;
      assert.equal(present, r.verbs.includes(verb as never), `${r.kind} ${verb}: ${method} ${path}`);
      if (present) {
        assert.deepEqual(op(path, method)['x-kubernetes-group-version-kind'], {
          group: r.group,
          version: r.version,
          kind: r.kind,
        });
      }
    }
    if (!r.verbs.includes('watch')) {
      assert.equal(doc.paths[`${prefix}/watch${ns}/${r.plural}`], undefined, `${r.kind} has no watch path`);
      continue;
    }
    assert.equal(op(`${prefix}/watch${ns}/${r.plural}`, 'get')['x-kubernetes-action'], 'watchlist');
    assert.equal(op(`${prefix}/watch${ns}/${r.plural}/{name}`, 'get')['x-kubernetes-action'], 'watch');
    if (r.namespaced) assert.equal(op(`${prefix}/${r.plural}`, 'get')['x-kubernetes-action'], 'list');
    for (const sub of r.subresources) assert.ok(doc.paths[`${item}/${sub.name}`], `${r.kind}/${sub.name}`);
  }
});

test('review resources are served as a single create operation (authorization.k8s.io, authentication.k8s.io)', () => {
  const reviews: [string, string][] = [
    ['/apis/authorization.k8s.io/v1/subjectaccessreviews', 'createAuthorizationV1SubjectAccessReview'],
    ['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', 'createAuthorizationV1SelfSubjectAccessReview'],
    ['/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', 'createAuthorizationV1SelfSubjectRulesReview'],
    [
      '/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews',
      'createAuthorizationV1NamespacedLocalSubjectAccessReview',
    ],
    ['/apis/authentication.k8s.io/v1/tokenreviews', 'createAuthenticationV1TokenReview'],
    ['/apis/authentication.k8s.io/v1/selfsubjectreviews', 'createAuthenticationV1SelfSubjectReview'],
  ];
  for (const [path, operationId] of reviews) {
    const item = doc.paths[path];
    assert.ok(item, path);
    assert.deepEqual(
      Object.keys(item).filter((k) => k !== 'parameters'),
      ['post'],
      path,
    );
    const post = op(path, 'post');
    assert.equal(post.operationId, operationId);
    assert.equal(post['x-kubernetes-action'], 'post');
    assert.deepEqual(Object.keys(post.responses), ['200', '201', '202', '401']);
    assert.equal(doc.paths[`${path}/{name}`], undefined, path);
  }
});

test('operation ids follow kube-apiserver naming', () => {
  assert.equal(op('/api/v1/namespaces/{namespace}/configmaps', 'get').operationId, 'listCoreV1NamespacedConfigMap');
  assert.equal(op('/api/v1/configmaps', 'get').operationId, 'listCoreV1ConfigMapForAllNamespaces');
  assert.equal(op('/api/v1/namespaces/{namespace}/configmaps', 'delete').operationId, 'deleteCoreV1CollectionNamespacedConfigMap');
  assert.equal(op('/api/v1/namespaces/{name}', 'get').operationId, 'readCoreV1Namespace');
  assert.equal(op('/api/v1/namespaces/{name}/finalize', 'put').operationId, 'replaceCoreV1NamespaceFinalize');
  assert.equal(
    op('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', 'patch').operationId,
    'patchAppsV1NamespacedDeploymentScale',
  );
  assert.equal(op('/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}', 'put').operationId, 'replaceRbacAuthorizationV1ClusterRole');
  assert.equal(op('/api/v1/watch/nodes/{name}', 'get').operationId, 'watchCoreV1Node');
});

test('PATCH operations accept the four patch types and the write query parameters', () => {
  const patch = op('/api/v1/namespaces/{namespace}/pods/{name}', 'patch');
  assert.deepEqual(patch.consumes, [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ]);
  const names = (patch.parameters ?? []).map((p) => p.name);
  for (const name of ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']) assert.ok(names.includes(name), name);
  const body = (patch.parameters ?? []).find((p) => p.in === 'body');
  assert.deepEqual(body?.schema, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' });
  const pathParams = (doc.paths['/api/v1/namespaces/{namespace}/pods/{name}']?.parameters ?? []).map((p) => p.name);
  assert.deepEqual(pathParams, ['name', 'namespace', 'pretty']);
});

test('list, delete and deletecollection carry their query parameters and response schemas', () => {
  const list = op('/api/v1/namespaces/{namespace}/configmaps', 'get');
  const listParams = (list.parameters ?? []).map((p) => p.name);
  for (const name of ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'watch']) {
    assert.ok(listParams.includes(name), name);
  }
  assert.deepEqual(list.responses['200']?.schema, { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMapList' });
  const del = op('/api/v1/namespaces/{namespace}/configmaps/{name}', 'delete');
  const delParams = (del.parameters ?? []).map((p) => p.name);
  for (const name of ['gracePeriodSeconds', 'propagationPolicy', 'orphanDependents', 'dryRun']) {
    assert.ok(delParams.includes(name), name);
  }
  assert.deepEqual(del.responses['200']?.schema, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status' });
  const scale = op('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', 'get');
  assert.deepEqual(scale['x-kubernetes-group-version-kind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  assert.deepEqual(scale.responses['200']?.schema, { $ref: '#/definitions/io.k8s.api.autoscaling.v1.Scale' });
});

test('every schema referenced from an operation is defined', () => {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (operation === undefined) continue;
      const refs = [
        ...Object.values(operation.responses).map((r) => r.schema?.$ref),
        ...(operation.parameters ?? []).map((p) => p.schema?.$ref),
      ].filter((r): r is string => r !== undefined);
      for (const ref of refs) {
        assert.ok(doc.definitions[ref.replace('#/definitions/', '')], `${method} ${path} → ${ref}`);
      }
    }
  }
});

test('the builder is deterministic', () => {
  const again = buildOpenApiV2({ resources: BUILTIN_RESOURCES, definitions: BUILTIN_DEFINITIONS, version: 'v1.32.0' });
  assert.equal(JSON.stringify(again), JSON.stringify(doc));
  const paths = Object.keys(doc.paths);
  assert.deepEqual(paths, [...paths].sort());
});
