import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  configMap,
  type GcApi,
  gcApi,
  HOLD_FINALIZER,
  type Json,
  metricValue,
  namespaceObject,
  ownerRef,
  ownerUids,
  queueDepth,
} from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Operating the collector: its metrics (R4.10, R4.40), its graph dump, and turning it off (R2.30).
const NS = 'gc-ops';
const DELETIONS = 'cascade_garbage_collector_deletions_total';

describe('garbage collector: metrics and graph dump', () => {
  let ts: TestServer;
  let gc: GcApi;

  before(async () => {
    ts = await startTestServer();
    gc = gcApi(ts);
    await gc.create(namespaceObject(NS));
  });
  after(async () => {
    await ts.stop();
  });

  it('R4.10, R4.40: /metrics exposes the queues by their Kubernetes names and the deletion counter rises after a cascade', async () => {
    const before = await gc.metrics();
    assert.match(before, /^# TYPE workqueue_depth gauge$/m);
    assert.match(before, /^# TYPE workqueue_adds_total counter$/m);
    for (const queue of ['garbage_collector_attempt_to_delete', 'garbage_collector_attempt_to_orphan']) {
      assert.equal(typeof queueDepth(before, queue), 'number', `workqueue_depth for ${queue}`);
      assert.equal(typeof metricValue(before, 'workqueue_adds_total', `name="${queue}"`), 'number', `workqueue_adds_total for ${queue}`);
    }
    assert.equal(typeof metricValue(before, 'garbagecollector_controller_resources_sync_error_total'), 'number');
    const deletionsBefore = metricValue(before, DELETIONS);
    const addsBefore = metricValue(before, 'workqueue_adds_total', 'name="garbage_collector_attempt_to_delete"');
    assert.equal(typeof deletionsBefore, 'number');

    const owner = await gc.create(configMap(NS, 'metrics-owner'));
    const deps = [];
    for (let i = 0; i < 5; i++) deps.push(await gc.create(configMap(NS, `metrics-dep-${i}`, { ownerReferences: [ownerRef(owner)] })));
    await gc.delete(owner);
    for (const d of deps) await gc.waitForGone(d);

    const text = await waitFor(
      async () => {
        const t = await gc.metrics();
        return metricValue(t, DELETIONS) === (deletionsBefore as number) + 5 ? t : undefined;
      },
      { timeoutMs: 5000, what: `${DELETIONS} to rise by the 5 collected dependents` },
    );
    assert.ok(
      (metricValue(text, 'workqueue_adds_total', 'name="garbage_collector_attempt_to_delete"') as number) >= (addsBefore as number) + 5,
    );
    await waitFor(async () => (queueDepth(await gc.metrics(), 'garbage_collector_attempt_to_delete') === 0 ? true : undefined), {
      timeoutMs: 5000,
      what: 'the queue to drain',
    });
  });

  it('/debug/gc/graph shows an owner, its dependents and their deletion state', async () => {
    const owner = await gc.create(configMap(NS, 'graph-owner'));
    const blocking = await gc.create(
      configMap(NS, 'graph-blocking', {
        finalizers: [HOLD_FINALIZER],
        ownerReferences: [ownerRef(owner, { controller: true, blockOwnerDeletion: true })],
      }),
    );
    const plain = await gc.create(configMap(NS, 'graph-plain', { ownerReferences: [ownerRef(owner)] }));
    const uid = owner.metadata.uid as string;
    const nodeOf = (dump: Json, obj: Json): Json | undefined => (dump.nodes as Json[]).find((n) => n.identity.uid === obj.metadata.uid);
    const graph = async (): Promise<Json | undefined> => {
      const res = await ts.request('GET', `/debug/gc/graph?uid=${uid}`);
      return res.status === 200 ? res.json : undefined;
    };

    const dump = await waitFor(
      async () => {
        const d = await graph();
        return d !== undefined && nodeOf(d, owner)?.dependents.length === 2 ? d : undefined;
      },
      { timeoutMs: 5000, what: 'the owner with both dependents in the graph' },
    );
    assert.equal(dump.uid, uid);
    const ownerNode = nodeOf(dump, owner) as Json;
    assert.deepEqual(ownerNode.identity, { apiVersion: 'v1', kind: 'ConfigMap', name: 'graph-owner', uid, namespace: NS });
    assert.deepEqual([ownerNode.virtual, ownerNode.beingDeleted, ownerNode.deletingDependents], [false, false, false]);
    assert.deepEqual([...ownerNode.dependents].sort(), [blocking.metadata.uid, plain.metadata.uid].sort());
    assert.deepEqual(nodeOf(dump, blocking)?.owners, [{ uid, blockOwnerDeletion: true, controller: true }]);
    assert.deepEqual(nodeOf(dump, plain)?.owners, [{ uid, blockOwnerDeletion: false, controller: false }]);

    await gc.delete(owner, { propagationPolicy: 'Foreground' });
    await gc.waitForGone(plain);
    const deleting = await waitFor(
      async () => {
        const d = await graph();
        const b = d && nodeOf(d, blocking);
        return d !== undefined && b?.beingDeleted === true && nodeOf(d, owner)?.dependents.length === 1 ? d : undefined;
      },
      { timeoutMs: 5000, what: 'the graph to show the foreground deletion' },
    );
    assert.deepEqual([nodeOf(deleting, owner)?.beingDeleted, nodeOf(deleting, owner)?.deletingDependents], [true, true]);
    assert.equal(nodeOf(deleting, plain), undefined, 'the collected dependent left the graph');

    await gc.release(blocking);
    await gc.waitForGone(owner);
    const res = await waitFor(
      async () => {
        const r = await ts.request('GET', `/debug/gc/graph?uid=${uid}`);
        return r.status === 404 ? r : undefined;
      },
      { timeoutMs: 5000, what: 'the owner to leave the graph' },
    );
    assert.equal(res.json.kind, 'Status');
    assert.equal(res.json.reason, 'NotFound');
  });
});

describe('garbage collector turned off', () => {
  let ts: TestServer;
  let gc: GcApi;

  before(async () => {
    ts = await startTestServer({ controllers: { garbageCollector: false } });
    gc = gcApi(ts);
    await gc.create(namespaceObject(NS));
  });
  after(async () => {
    await ts.stop();
  });

  it('R2.30: dependents are left alone and GC finalizers stay', async () => {
    const text = await gc.metrics();
    assert.equal(queueDepth(text, 'garbage_collector_attempt_to_delete'), undefined, 'no collector queues are exported');
    assert.equal(metricValue(text, DELETIONS), undefined);
    const dbg = await ts.request('GET', '/debug/gc/graph?uid=anything');
    assert.equal(dbg.status, 404);

    const bg = await gc.create(configMap(NS, 'off-bg-owner'));
    const bgDep = await gc.create(configMap(NS, 'off-bg-dep', { ownerReferences: [ownerRef(bg)] }));
    const orphan = await gc.create(configMap(NS, 'off-orphan-owner'));
    const orphanDep = await gc.create(configMap(NS, 'off-orphan-dep', { ownerReferences: [ownerRef(orphan)] }));
    const fg = await gc.create(configMap(NS, 'off-fg-owner'));
    const fgDep = await gc.create(configMap(NS, 'off-fg-dep', { ownerReferences: [ownerRef(fg, { blockOwnerDeletion: true })] }));

    assert.equal((await gc.delete(bg)).json.kind, 'Status');
    assert.deepEqual((await gc.delete(orphan, { propagationPolicy: 'Orphan' })).json.metadata.finalizers, ['orphan']);
    assert.deepEqual((await gc.delete(fg, { propagationPolicy: 'Foreground' })).json.metadata.finalizers, ['foregroundDeletion']);
    // A kubectl round trip (discovery plus a list) gives any stray worker ample time; there is none to act.
    await ts.kubectlOk(['get', 'configmaps', '-n', NS]);

    assert.equal(await gc.get(bg), undefined);
    for (const [owner, dep] of [
      [bg, bgDep],
      [orphan, orphanDep],
      [fg, fgDep],
    ] as const) {
      const live = await gc.get(dep);
      assert.ok(live, `${dep.metadata.name} is not collected`);
      assert.deepEqual(ownerUids(live), [owner.metadata.uid], 'and keeps its reference');
      assert.equal(live.metadata.deletionTimestamp, undefined);
    }
    assert.deepEqual((await gc.get(orphan))?.metadata.finalizers, ['orphan']);
    assert.deepEqual((await gc.get(fg))?.metadata.finalizers, ['foregroundDeletion']);
  });
});
