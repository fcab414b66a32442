import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject, Status } from '../api/types.js';
import { startTestServer, type TestServer } from '../embed/test-server.js';
import type { ObjectEvent } from '../api/types.js';
import { createHttpClient, type HttpApiClient } from './http-client.js';
import type { ApiClient, ResourceRef } from './interface.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const WIDGETS: ResourceRef = { group: 'example.com', version: 'v1', resource: 'widgets' };

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, shortNames: [wg], categories: [all] }
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, x-kubernetes-preserve-unknown-fields: true }
            status: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;

async function statusErrorOf(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

function configMap(name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

describe('HTTP ApiClient against a Cascade server', () => {
  let server: TestServer;
  let client: HttpApiClient;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cascade-http-client-'));
    await writeFile(join(dir, 'widgets.yaml'), WIDGET_CRD);
    server = await startTestServer({ crdPaths: [join(dir, 'widgets.yaml')] });
    client = server.httpClient();
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('create, get, list with selectors, update, patch (json, merge, strategic) and delete', async () => {
    const created = await client.create(CONFIGMAPS, 'default', configMap('crud', { a: '1' }, { app: 'crud' }));
    assert.equal(created.metadata.namespace, 'default');
    assert.ok(created.metadata.uid);
    const got = await client.get(CONFIGMAPS, 'default', 'crud');
    assert.deepEqual(got.data, { a: '1' });
    await client.create(CONFIGMAPS, 'default', configMap('crud-other', {}, { app: 'other' }));
    const selected = await client.list(CONFIGMAPS, 'default', { labelSelector: 'app=crud' });
    assert.equal(selected.kind, 'ConfigMapList');
    assert.deepEqual(
      selected.items.map((i) => i.metadata.name),
      ['crud'],
    );
    const byField = await client.list(CONFIGMAPS, 'default', { fieldSelector: 'metadata.name=crud-other' });
    assert.deepEqual(
      byField.items.map((i) => i.metadata.name),
      ['crud-other'],
    );
    const page = await client.list(CONFIGMAPS, 'default', { limit: 1 });
    assert.equal(page.items.length, 1);
    assert.ok(page.metadata.continue, 'a limited list carries a continue token');

    const updated = await client.update(CONFIGMAPS, 'default', { ...got, data: { a: '2' } });
    assert.deepEqual(updated.data, { a: '2' });
    const merged = await client.patch(CONFIGMAPS, 'default', 'crud', 'merge', { data: { b: '3' } });
    assert.deepEqual(merged.data, { a: '2', b: '3' });
    const jsonPatched = await client.patch(CONFIGMAPS, 'default', 'crud', 'json', [{ op: 'remove', path: '/data/a' }]);
    assert.deepEqual(jsonPatched.data, { b: '3' });
    const strategic = await client.patch(CONFIGMAPS, 'default', 'crud', 'strategic', { metadata: { labels: { tier: 'x' } } });
    assert.deepEqual(strategic.metadata.labels, { app: 'crud', tier: 'x' });

    const deleted = await client.delete(CONFIGMAPS, 'default', 'crud', { propagationPolicy: 'Background' });
    assert.equal(deleted.code, 200);
    assert.equal(deleted.body.kind, 'Status');
    assert.equal((deleted.body as Status).status, 'Success');
    assert.equal((deleted.body as Status).details?.name, 'crud');
    const gone = await statusErrorOf(client.get(CONFIGMAPS, 'default', 'crud'));
    assert.equal(gone.code, 404);
  });

  test('apply creates, conflicts, forces and dry-runs with the apply content type and its query (issue 20)', async () => {
    const config = (a: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { a } });
    const created = await client.apply(CONFIGMAPS, 'default', config('1'), { fieldManager: 'alpha' });
    assert.deepEqual(
      (created.metadata.managedFields as Record<string, unknown>[]).map((e) => [e.manager, e.operation]),
      [['alpha', 'Apply']],
    );
    const refused = await statusErrorOf(client.apply(CONFIGMAPS, 'default', config('2'), { fieldManager: 'beta' }));
    assert.equal(refused.code, 409);
    assert.equal(refused.message, 'Apply failed with 1 conflict: conflict with "alpha": .data.a');
    const dry = await client.apply(CONFIGMAPS, 'default', config('2'), { fieldManager: 'beta', force: true, dryRun: true });
    assert.deepEqual(dry.data, { a: '2' });
    assert.deepEqual((await client.get(CONFIGMAPS, 'default', 'applied')).data, { a: '1' });
    const forced = await client.apply(CONFIGMAPS, 'default', config('2'), { fieldManager: 'beta', force: true });
    assert.deepEqual(forced.data, { a: '2' });
  });

  test('deleteCollection deletes what the selector matches and returns it', async () => {
    for (const name of ['dc-1', 'dc-2']) await client.create(CONFIGMAPS, 'default', configMap(name, {}, { batch: 'dc' }));
    await client.create(CONFIGMAPS, 'default', configMap('dc-keep', {}, { batch: 'keep' }));
    const deleted = await client.deleteCollection(CONFIGMAPS, 'default', { labelSelector: 'batch=dc' });
    assert.deepEqual(deleted.items.map((i) => i.metadata.name).sort(), ['dc-1', 'dc-2']);
    const left = await client.list(CONFIGMAPS, 'default', { labelSelector: 'batch in (dc,keep)' });
    assert.deepEqual(
      left.items.map((i) => i.metadata.name),
      ['dc-keep'],
    );
  });

  test('a DeleteOptions precondition travels in the body (R9.5)', async () => {
    await client.create(CONFIGMAPS, 'default', configMap('precond'));
    const err = await statusErrorOf(client.delete(CONFIGMAPS, 'default', 'precond', { preconditions: { uid: 'not-the-uid' } }));
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
  });

  test('update of the status subresource changes only status', async () => {
    const widget = await client.create(WIDGETS, 'default', {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 1 },
    });
    const withStatus = await client.update(WIDGETS, 'default', { ...widget, spec: { size: 9 }, status: { ready: true } }, 'status');
    assert.deepEqual(withStatus.status, { ready: true });
    assert.deepEqual(withStatus.spec, { size: 1 });
  });

  test('a namespace given for a cluster-scoped resource is ignored, as by the in-process client', async () => {
    const ns = await client.get(NAMESPACES, 'default', 'kube-system');
    assert.equal(ns.metadata.name, 'kube-system');
  });

  test('failures are StatusErrors with the code, reason, message and details the in-process client gives (R9.3, R9.4, R9.5, R9.6, R9.9)', async () => {
    const inProcess: ApiClient = server.client;
    await client.create(CONFIGMAPS, 'default', configMap('errs'));
    const stale = { ...(await client.get(CONFIGMAPS, 'default', 'errs')) };
    stale.metadata = { ...stale.metadata, resourceVersion: '1' };
    const cases: [string, (c: ApiClient) => Promise<unknown>, number, string][] = [
      ['missing', (c) => c.get(CONFIGMAPS, 'default', 'nope'), 404, 'NotFound'],
      ['duplicate', (c) => c.create(CONFIGMAPS, 'default', configMap('errs')), 409, 'AlreadyExists'],
      ['stale update', (c) => c.update(CONFIGMAPS, 'default', stale), 409, 'Conflict'],
      ['invalid name', (c) => c.create(CONFIGMAPS, 'default', configMap('Not_Valid')), 422, 'Invalid'],
      ['no deletecollection on namespaces', (c) => c.deleteCollection(NAMESPACES, undefined), 405, 'MethodNotAllowed'],
      // A built-in group's web service answers its unknown resources with a Status (an unknown group's paths get
      // Go's plain-text 404, which client-go words differently).
      ['unknown resource', (c) => c.list({ group: 'apps', version: 'v1', resource: 'things' }, undefined), 404, 'NotFound'],
    ];
    for (const [what, call, code, reason] of cases) {
      const overHttp = await statusErrorOf(call(client));
      const direct = await statusErrorOf(call(inProcess));
      assert.equal(overHttp.code, code, what);
      assert.equal(overHttp.reason, reason, what);
      assert.equal(overHttp.message, direct.message, what);
      assert.deepEqual(overHttp.details, direct.details, what);
    }
    const missing = await statusErrorOf(client.get(CONFIGMAPS, 'default', 'nope'));
    assert.equal(missing.message, 'configmaps "nope" not found');
    assert.deepEqual(missing.details, { name: 'nope', kind: 'configmaps' });
  });

  test('an empty name is refused before anything is sent', async () => {
    await assert.rejects(client.get(CONFIGMAPS, 'default', ''), /resource name may not be empty/);
  });

  test('watch streams ADDED, MODIFIED and DELETED after a list, and stop() ends the iteration', async () => {
    const list = await client.list(CONFIGMAPS, 'default');
    const watch = await client.watch(CONFIGMAPS, 'default', { resourceVersion: list.metadata.resourceVersion, labelSelector: 'w=1' });
    const seen: ObjectEvent[] = [];
    const consumed = (async () => {
      for await (const event of watch) {
        seen.push(event);
        if (event.type === 'DELETED') watch.stop();
      }
    })();
    await client.create(CONFIGMAPS, 'default', configMap('watched', { v: '1' }, { w: '1' }));
    await client.patch(CONFIGMAPS, 'default', 'watched', 'merge', { data: { v: '2' } });
    await client.delete(CONFIGMAPS, 'default', 'watched');
    await consumed;
    assert.deepEqual(
      seen.map((e) => [e.type, (e.object as KubeObject).metadata.name, (e.object as KubeObject).data]),
      [
        ['ADDED', 'watched', { v: '1' }],
        ['MODIFIED', 'watched', { v: '2' }],
        ['DELETED', 'watched', { v: '2' }],
      ],
    );
  });

  test('watch without a resourceVersion replays the current state; stop() while waiting ends it', async () => {
    await client.create(CONFIGMAPS, 'default', configMap('replayed', {}, { replay: 'yes' }));
    const watch = await client.watch(CONFIGMAPS, 'default', { labelSelector: 'replay=yes' });
    const iterator = watch[Symbol.asyncIterator]();
    const first = await iterator.next();
    assert.equal(first.done, false);
    assert.equal((first.value as ObjectEvent).type, 'ADDED');
    const pending = iterator.next();
    watch.stop();
    assert.deepEqual(await pending, { done: true, value: undefined });
  });

  test('discovery reports the built-in resources as the in-process client does, and the CRD', async () => {
    const overHttp = await client.discover();
    assert.deepEqual(client.lastDiscoveryErrors, []);
    const key = (r: { group: string; version: string; plural: string }): string => `${r.group}/${r.version}/${r.plural}`;
    const byKey = new Map(overHttp.map((r) => [key(r), r]));
    for (const direct of await server.client.discover()) {
      const remote = byKey.get(key(direct));
      assert.ok(remote, `${key(direct)} is discovered over HTTP`);
      assert.equal(remote.kind, direct.kind);
      assert.equal(remote.singular, direct.singular);
      assert.equal(remote.namespaced, direct.namespaced);
      assert.deepEqual([...remote.verbs].sort(), [...direct.verbs].sort(), key(direct));
      assert.deepEqual(remote.shortNames, direct.shortNames);
      assert.deepEqual(remote.categories, direct.categories);
      const subs = (r: typeof remote): string[] =>
        r.subresources.map((s) => `${s.name}:${s.kind ?? ''}:${[...s.verbs].sort().join(',')}`).sort();
      assert.deepEqual(subs(remote), subs(direct), key(direct));
    }
    const widgets = byKey.get('example.com/v1/widgets');
    assert.ok(widgets);
    assert.equal(widgets.kind, 'Widget');
    assert.equal(widgets.listKind, 'WidgetList');
    assert.deepEqual(widgets.shortNames, ['wg']);
    const scale = byKey.get('apps/v1/deployments')?.subresources.find((s) => s.name === 'scale');
    assert.deepEqual(scale, { name: 'scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
});

test('an unreachable server rejects with an Error naming it', async () => {
  const server = await startTestServer();
  const url = server.url;
  await server.stop();
  const client = createHttpClient({ server: url });
  try {
    await assert.rejects(client.list(CONFIGMAPS, undefined), (err: unknown) => {
      assert.ok(err instanceof Error && !(err instanceof StatusError));
      assert.match(err.message, new RegExp(`^cannot reach the Kubernetes API server at ${url.replace(/\./g, '\\.')}: .*ECONNREFUSED`));
      return true;
    });
  } finally {
    client.close();
  }
});

test('a server URL that is not http(s) is refused', () => {
  assert.throws(() => createHttpClient({ server: 'ftp://example.com' }), /must be http or https/);
  assert.throws(() => createHttpClient({ server: 'not a url' }), /invalid API server URL/);
});
