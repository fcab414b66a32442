import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CustomKind, crdApi, crdFor, crdVersion, crPath } from '../support/crd-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'ssa-crd';
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const GADGET: CustomKind = { group: 'ssa.example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true };
const SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
};
const gadget = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'ssa.example.com/v1',
  kind: 'Gadget',
  metadata: { name: 'g' },
  spec,
  ...extra,
});

describe('server-side apply of custom resources and /status (R10.65–R10.72, R10.80, R10.107)', () => {
  let ts: TestServer;
  const apply = (body: unknown, query: string, sub = '') => ts.request('PATCH', `${crPath(GADGET, NS, 'g')}${sub}?${query}`, body, APPLY);

  before(async () => {
    ts = await startTestServer();
    await ts.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const version = crdVersion('v1', { storage: true, schema: SCHEMA, extra: { subresources: { status: {} } } });
    await crdApi(ts).createEstablished(crdFor(GADGET, { versions: [version] }));
  });
  after(async () => {
    await ts.stop();
  });

  it('merges list-map items and set items per manager; atomic lists have one owner; dropped fields are re-defaulted', async () => {
    const created = await apply(gadget({ replicas: 3, items: [{ name: 'a', value: '1' }], tags: ['x'], args: ['p'] }), 'fieldManager=A');
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.metadata.managedFields[0].fieldsV1, {
      'f:spec': {
        'f:args': {},
        'f:items': { 'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
        'f:replicas': {},
        'f:tags': { 'v:"x"': {} },
      },
    });
    const b = await apply(gadget({ items: [{ name: 'b', value: '2' }], tags: ['y'] }), 'fieldManager=B');
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(b.json.spec.items, [
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ]);
    assert.deepEqual(b.json.spec.tags, ['x', 'y']);
    const atomic = await apply(gadget({ args: ['q'] }), 'fieldManager=B');
    assert.equal(atomic.status, 409);
    assert.equal(atomic.json.message, 'Apply failed with 1 conflict: conflict with "A": .spec.args');
    const dropped = await apply(gadget({ items: [{ name: 'a', value: '1' }] }), 'fieldManager=A');
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.json.spec.replicas, 1, 're-defaulted (R10.77)');
    assert.equal(dropped.json.spec.args, undefined);
    assert.deepEqual(dropped.json.spec.tags, ['y']);
    const undeclared = await apply(gadget({ foo: 1 }), 'fieldManager=A');
    assert.equal(undeclared.status, 400);
    assert.equal(
      undeclared.json.message,
      `failed to create typed patch object (${NS}/g; ssa.example.com/v1, Kind=Gadget): .spec.foo: field not declared in schema`,
    );
  });

  it('SSA-14: status in a main-resource apply is ignored; /status applies are recorded with their subresource', async () => {
    const before = (await ts.request('GET', crPath(GADGET, NS, 'g'))).json;
    const main = await apply(gadget({ items: [{ name: 'a', value: '1' }] }, { status: { phase: 'X' } }), 'fieldManager=A');
    assert.equal(main.status, 200, main.text);
    assert.equal(main.json.status, undefined);
    assert.equal(main.json.metadata.resourceVersion, before.metadata.resourceVersion, 'only status differed: a no-op (R10.81)');
    const status = await apply(gadget({}, { status: { phase: 'Y' } }), 'fieldManager=ctl', '/status');
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json.status.phase, 'Y');
    const entry = status.json.metadata.managedFields.find((e: any) => e.manager === 'ctl');
    assert.deepEqual(entry, { ...entry, operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:phase': {} } } });
    const missing = await ts.request(
      'PATCH',
      `${crPath(GADGET, NS, 'nope')}/status?fieldManager=ctl`,
      { ...gadget({}), metadata: { name: 'nope' } },
      APPLY,
    );
    assert.equal(missing.status, 404);
  });
});
