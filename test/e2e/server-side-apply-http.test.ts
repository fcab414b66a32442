import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from '../support/test-server.js';

const NS = 'ssa-http';
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const cmPath = (name: string, query = ''): string => `/api/v1/namespaces/${NS}/configmaps/${name}${query}`;
const cm = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  ...extra,
});

describe('server-side apply over HTTP (R10)', () => {
  let ts: TestServer;
  const apply = (name: string, body: unknown, query: string) => ts.request('PATCH', cmPath(name, query), body, APPLY);

  before(async () => {
    // These tests pin every managedFields entry of the Deployments they apply; the Deployment controller's status
    // writes would add its own entry (kube-controller-manager's, as on a cluster), which is not what they test.
    ts = await startTestServer({ controllers: WITHOUT_WORKLOAD_CONTROLLERS });
    await ts.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(async () => {
    await ts.stop();
  });

  it('SSA-01: apply needs a fieldManager; non-apply patches refuse force (R10.7, R10.9)', async () => {
    const r = await apply('cm01', cm('cm01'), '');
    assert.equal(r.status, 422);
    assert.equal(r.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assert.deepEqual(r.json.details, {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
    });
    assert.equal((await ts.request('GET', cmPath('cm01'))).status, 404);
    await ts.request('POST', `/api/v1/namespaces/${NS}/configmaps`, cm('cm01b'));
    const forced = await ts.request('PATCH', cmPath('cm01b', '?force=false'), { data: { a: 'b' } }, MERGE);
    assert.equal(forced.status, 422);
    assert.equal(forced.json.message, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const long = await ts.request('POST', `/api/v1/namespaces/${NS}/configmaps?fieldManager=${'x'.repeat(129)}`, cm('cm01c'));
    assert.equal(long.status, 422);
    assert.equal(long.json.message, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
  });

  it('SSA-02: apply creates (201), records its Apply entry, and an identical re-apply is a no-op (R10.5, R10.46, R10.48)', async () => {
    const body = cm('cm02', { metadata: { name: 'cm02', labels: { 'test-label': 'test' } }, data: { key: 'value' } });
    const first = await apply('cm02', body, '?fieldManager=A');
    assert.equal(first.status, 201);
    const [entry] = first.json.metadata.managedFields;
    assert.deepEqual(Object.keys(entry), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    assert.deepEqual(
      { ...entry, time: undefined },
      {
        manager: 'A',
        operation: 'Apply',
        apiVersion: 'v1',
        time: undefined,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
      },
    );
    const second = await apply('cm02', JSON.stringify(body), '?fieldManager=A');
    assert.equal(second.status, 200);
    assert.equal(second.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
    assert.deepEqual(second.json.metadata.managedFields, first.json.metadata.managedFields);
  });

  it('SSA-03: the configuration must be this kind, without managedFields, named as the URL (R10.11–R10.13)', async () => {
    await apply('cm03', cm('cm03'), '?fieldManager=A');
    const cases: [unknown, string][] = [
      [{ ...cm('cm03'), kind: 'Secret' }, 'invalid object type: /v1, Kind=Secret'],
      [{}, 'invalid object type: /, Kind='],
      [cm('cm03', { metadata: { name: 'cm03', managedFields: [] } }), 'metadata.managedFields must be nil'],
      [cm('other'), 'the name of the object (other) does not match the name on the URL (cm03)'],
      [
        cm('cm03', { metadata: { name: 'cm03', namespace: 'other' } }),
        'the namespace of the provided object does not match the namespace sent on the request',
      ],
      [
        cm('cm03', { data: { k: 1 } }),
        `failed to create typed patch object (${NS}/cm03; /v1, Kind=ConfigMap): .data.k: expected string, got &value.valueUnstructured{Value:1}`,
      ],
    ];
    for (const [body, message] of cases) {
      const r = await apply('cm03', body, '?fieldManager=A');
      assert.equal(r.status, 400, message);
      assert.equal(r.json.reason, 'BadRequest');
      assert.equal(r.json.message, message);
    }
    const yaml = await ts.request('PATCH', cmPath('cm03', '?fieldManager=A'), 'a: [', APPLY);
    assert.equal(yaml.status, 400);
    assert.match(yaml.json.message, /^error decoding YAML: error converting YAML to JSON: yaml: /);
  });

  it('SSA-04: an Update takes a field, the apply conflicts, force takes it back (R10.42, R10.86, R10.90)', async () => {
    const body = cm('cm04', { metadata: { name: 'cm04', labels: { l: 'x' } }, data: { key: 'value' } });
    await apply('cm04', body, '?fieldManager=A');
    const patched = await ts.request('PATCH', cmPath('cm04', '?fieldManager=updater'), { data: { key: 'new' } }, MERGE);
    assert.deepEqual(
      patched.json.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.fieldsV1]),
      [
        ['A', 'Apply', { 'f:metadata': { 'f:labels': { 'f:l': {} } } }],
        ['updater', 'Update', { 'f:data': { 'f:key': {} } }],
      ],
    );
    const conflicted = await apply('cm04', body, '?fieldManager=A');
    assert.equal(conflicted.status, 409);
    assert.equal(conflicted.json.reason, 'Conflict');
    assert.equal(conflicted.json.message, 'Apply failed with 1 conflict: conflict with "updater" using v1: .data.key');
    assert.deepEqual(conflicted.json.details, {
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "updater" using v1', field: '.data.key' }],
    });
    const forced = await apply('cm04', body, '?fieldManager=A&force=true');
    assert.equal(forced.status, 200);
    assert.equal(forced.json.data.key, 'value');
    assert.deepEqual(
      forced.json.metadata.managedFields.map((e: any) => e.manager),
      ['A'],
    );
  });

  it('SSA-07: a label the manager stops applying goes unless another manager owns it (R10.93, R10.129)', async () => {
    await apply('cm07', cm('cm07', { metadata: { name: 'cm07', labels: { a: '1', b: '2' } } }), '?fieldManager=A');
    await apply('cm07', cm('cm07', { metadata: { name: 'cm07', labels: { b: '2' } } }), '?fieldManager=B');
    const afterA = await apply('cm07', cm('cm07', { metadata: { name: 'cm07', labels: { a: '1' } } }), '?fieldManager=A');
    assert.deepEqual(afterA.json.metadata.labels, { a: '1', b: '2' });
    const afterB = await apply('cm07', cm('cm07'), '?fieldManager=B');
    assert.deepEqual(afterB.json.metadata.labels, { a: '1' });
  });

  it('SSA-11: Update managers come from fieldManager or the User-Agent (R10.39)', async () => {
    const created = await ts.request('POST', `/api/v1/namespaces/${NS}/configmaps`, cm('cm11', { data: { a: '1' } }), {
      'User-Agent': 'curl/8.5.0',
    });
    assert.deepEqual(
      created.json.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.fieldsV1]),
      [['curl', 'Update', { 'f:data': { '.': {}, 'f:a': {} } }]],
    );
  });

  it('SSA-12: managedFields [] resets tracking; the next apply meets before-first-apply (R10.50, R10.56)', async () => {
    await apply('cm12', cm('cm12', { metadata: { name: 'cm12', labels: { l: 'x' } }, data: { key: 'value' } }), '?fieldManager=A');
    const reset = await ts.request('PATCH', cmPath('cm12'), { metadata: { managedFields: [] } }, MERGE);
    assert.equal(reset.json.metadata.managedFields, undefined);
    const patched = await ts.request('PATCH', cmPath('cm12'), { metadata: { labels: { m: 'y' } } }, MERGE);
    assert.equal(patched.json.metadata.managedFields, undefined);
    const r = await apply('cm12', cm('cm12', { data: { key: 'other' } }), '?fieldManager=A');
    assert.equal(r.status, 409);
    assert.equal(r.json.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.key');
  });

  it('/scale: Update and Apply entries land on the parent with subresource "scale" and conflict with its appliers (R10.109)', async () => {
    const path = `/apis/apps/v1/namespaces/${NS}/deployments/d`;
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    assert.equal((await ts.request('PATCH', `${path}?fieldManager=A`, deployment, APPLY)).status, 201);
    const scale = (replicas: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd' }, spec: { replicas } });
    const conflicted = await ts.request('PATCH', `${path}/scale?fieldManager=hpa`, scale(5), APPLY);
    assert.equal(conflicted.status, 409);
    assert.equal(conflicted.json.message, 'Apply failed with 1 conflict: conflict with "A": .spec.replicas');
    const forced = await ts.request('PATCH', `${path}/scale?fieldManager=hpa&force=true`, scale(5), APPLY);
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.json.spec.replicas, 5);
    const parent = (await ts.request('GET', path)).json;
    const hpa = parent.metadata.managedFields.find((e: any) => e.manager === 'hpa');
    assert.deepEqual(
      { ...hpa, time: undefined },
      {
        manager: 'hpa',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: undefined,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
        subresource: 'scale',
      },
    );
    const updated = await ts.request(
      'PATCH',
      `${path}/scale`,
      { spec: { replicas: 6 } },
      { ...MERGE, 'User-Agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc' },
    );
    assert.equal(updated.status, 200, updated.text);
    const after = (await ts.request('GET', path)).json.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.subresource]);
    assert.deepEqual(after, [
      ['A', 'Apply', undefined],
      ['kubectl', 'Update', 'scale'],
    ]);
  });

  it('SSA-17: dry-run applies answer the would-be object and store nothing (R10.23)', async () => {
    const r = await apply('cm17', cm('cm17', { data: { a: '1' } }), '?fieldManager=A&dryRun=All');
    assert.equal(r.status, 201);
    assert.equal(r.json.metadata.managedFields[0].manager, 'A');
    assert.equal(r.json.metadata.resourceVersion, undefined);
    assert.equal((await ts.request('GET', cmPath('cm17'))).status, 404);
  });
});
