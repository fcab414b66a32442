import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  configMap,
  deployment,
  type GcApi,
  gcApi,
  ghostRef,
  HOLD_FINALIZER,
  type Json,
  namespaceObject,
  startWatch,
  ownerRef,
  ownerUids,
  pod,
  replicaSet,
} from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer, WITHOUT_WORKLOAD_CONTROLLERS } from '../support/test-server.js';

// Cascading deletion through the in-process garbage collector (spec §4; scenarios GC-BG-*, GC-FG-*, GC-OR-*).
const NS = 'gc-cascade';

describe('garbage collector: cascading deletion', () => {
  let ts: TestServer;
  let gc: GcApi;
  const cm = (name: string, meta: Json = {}): Json => configMap(NS, name, meta);

  before(async () => {
    // The chains here are made by hand to test the collector alone.
    ts = await startTestServer({ controllers: WITHOUT_WORKLOAD_CONTROLLERS });
    gc = gcApi(ts);
    await gc.create(namespaceObject(NS));
  });
  after(async () => {
    await ts.stop();
  });

  it('GC-BG-01, R4.29, R2.29: background deletion collects three levels; a dependent with a solid second owner and a bystander stay', async () => {
    const root = await gc.create(deployment(NS, 'web'));
    const rs = await gc.create(
      replicaSet(NS, 'web-rs', { ownerReferences: [ownerRef(root, { controller: true, blockOwnerDeletion: true })] }),
    );
    const other = await gc.create(replicaSet(NS, 'other-rs'));
    const podA = await gc.create(pod(NS, 'web-rs-a', { ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] }));
    const podB = await gc.create(pod(NS, 'web-rs-b', { ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] }));
    const leaf = await gc.create(cm('web-rs-a-config', { ownerReferences: [ownerRef(podA)] }));
    const shared = await gc.create(pod(NS, 'shared', { ownerReferences: [ownerRef(rs), ownerRef(other)] }));
    const bystander = await gc.create(cm('bystander'));

    // kubectl sends propagationPolicy=Background and waits for the root to disappear (R2.41).
    await ts.kubectlOk(['delete', 'deployment', 'web', '-n', NS]);
    for (const gone of [rs, podA, podB, leaf]) await gc.waitForGone(gone);

    // R4.27: the reference to the vanished ReplicaSet is pruned; the solid owner keeps the pod.
    const kept = await gc.waitFor(shared, (o) => ownerUids(o).length === 1, 'the reference to web-rs to be pruned');
    assert.deepEqual(ownerUids(kept), [other.metadata.uid]);
    assert.equal(kept.metadata.deletionTimestamp, undefined);
    assert.ok(await gc.get(bystander));
    assert.ok(await gc.get(other));
  });

  it('GC-BG-02, GC-BG-10: a DELETE without options cascades for ConfigMaps (default background)', async () => {
    const owner = await gc.create(cm('plain-owner'));
    const dependents = [];
    for (let i = 0; i < 10; i++) dependents.push(await gc.create(cm(`plain-dep-${i}`, { ownerReferences: [ownerRef(owner)] })));
    const res = await gc.delete(owner);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.kind, 'Status', 'removed at once, no GC finalizer (R2.22)');
    for (const d of dependents) await gc.waitForGone(d);
  });

  it('GC-OR-02, R4.34–R4.36: kubectl --cascade=orphan leaves the dependents running without references', async () => {
    const rs = await gc.create(replicaSet(NS, 'keeper-rs'));
    const pods = [
      await gc.create(pod(NS, 'keeper-a', { ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] })),
      await gc.create(pod(NS, 'keeper-b', { ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] })),
    ];
    // kubectl waits until the owner is gone, i.e. until the GC removed the orphan finalizer (R4.35).
    await ts.kubectlOk(['delete', 'replicaset', 'keeper-rs', '-n', NS, '--cascade=orphan']);
    assert.equal(await gc.get(rs), undefined);
    for (const p of pods) {
      const live = await gc.get(p);
      assert.ok(live, `${p.metadata.name} survives`);
      assert.equal(live.metadata.ownerReferences, undefined, 'the only reference is removed (empty list is omitted)');
      assert.equal(live.metadata.deletionTimestamp, undefined);
    }
    // R4.36: an object without references is never collected.
    await gc.settle({ namespace: NS });
    for (const p of pods) assert.ok(await gc.get(p));
  });

  it('GC-OR-01: propagationPolicy=Orphan on an owner with a custom finalizer orphans, then waits for the finalizer', async () => {
    const owner = await gc.create(cm('orphan-owner', { finalizers: [HOLD_FINALIZER] }));
    const second = await gc.create(cm('orphan-second-owner'));
    const onlyOwned = await gc.create(cm('orphan-dep-a', { ownerReferences: [ownerRef(owner)] }));
    const coOwned = await gc.create(cm('orphan-dep-b', { ownerReferences: [ownerRef(owner), ownerRef(second)] }));
    const res = await gc.delete(owner, { propagationPolicy: 'Orphan' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.metadata.finalizers, [HOLD_FINALIZER, 'orphan']);
    assert.ok(res.json.metadata.deletionTimestamp);

    // R4.35: the GC removes only its own finalizer; the custom one keeps the owner.
    const waiting = await gc.waitFor(owner, (o) => !o.metadata.finalizers.includes('orphan'), 'the orphan finalizer to be removed');
    assert.deepEqual(waiting.metadata.finalizers, [HOLD_FINALIZER]);
    assert.equal((await gc.get(onlyOwned))?.metadata.ownerReferences, undefined);
    const co = await gc.get(coOwned);
    assert.ok(co);
    assert.deepEqual(co.metadata.ownerReferences, [ownerRef(second)], 'only the orphaning owner is removed from a co-owned dependent');

    await gc.release(owner);
    await gc.waitForGone(owner);
    await gc.settle({ namespace: NS });
    for (const d of [onlyOwned, coOwned]) assert.ok(await gc.get(d), `${d.metadata.name} survives its orphaning owner`);
  });

  it('GC-OR-03: orphanDependents=true orphans as well', async () => {
    const owner = await gc.create(cm('legacy-orphan-owner'));
    const dep = await gc.create(cm('legacy-orphan-dep', { ownerReferences: [ownerRef(owner)] }));
    const res = await ts.request('DELETE', `/api/v1/namespaces/${NS}/configmaps/legacy-orphan-owner?orphanDependents=true`);
    assert.equal(res.status, 200, res.text);
    await gc.waitForGone(owner);
    const live = await gc.get(dep);
    assert.ok(live);
    assert.equal(live.metadata.ownerReferences, undefined);
  });

  it('GC-BG-09: an owner created with the orphan finalizer and deleted with orphanDependents=false cascades', async () => {
    const owner = await gc.create(cm('preset-orphan-owner', { finalizers: ['orphan'] }));
    const dep = await gc.create(cm('preset-orphan-dep', { ownerReferences: [ownerRef(owner)] }));
    const res = await gc.delete(owner, { orphanDependents: false });
    assert.equal(res.status, 200, res.text);
    await gc.waitForGone(owner);
    await gc.waitForGone(dep);
  });

  it('GC-FG-01, GC-FG-02, R4.31, R4.32, D2: foreground waits for blocking dependents only, but deletes all of them', async () => {
    const owner = await gc.create(cm('fg-owner'));
    const blocking = await gc.create(
      cm('fg-blocking', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
    );
    const heldNonBlocking = await gc.create(
      cm('fg-held', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: false })] }),
    );
    const plain = await gc.create(cm('fg-plain', { ownerReferences: [ownerRef(owner)] }));

    const res = await gc.delete(owner, { propagationPolicy: 'Foreground' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.metadata.finalizers, ['foregroundDeletion']);
    assert.ok(res.json.metadata.deletionTimestamp);

    // D2: every dependent is deleted, blocking or not.
    await gc.waitForGone(plain);
    await gc.waitFor(blocking, (o) => o.metadata.deletionTimestamp !== undefined, 'the blocking dependent to be deleted');
    await gc.waitFor(heldNonBlocking, (o) => o.metadata.deletionTimestamp !== undefined, 'the non-blocking dependent to be deleted');
    await gc.settle({ namespace: NS });
    let live = await gc.get(owner);
    assert.ok(live, 'the owner waits for its blocking dependent (GC-FG-07)');
    assert.deepEqual(live.metadata.finalizers, ['foregroundDeletion']);

    // Releasing the non-blocking dependent changes nothing for the owner.
    await gc.release(heldNonBlocking);
    await gc.waitForGone(heldNonBlocking);
    await gc.settle({ namespace: NS });
    live = await gc.get(owner);
    assert.ok(live, 'still waiting for the blocking dependent');

    await gc.release(blocking);
    await gc.waitForGone(blocking);
    await gc.waitForGone(owner);
  });

  it('GC-FG-02, D2: non-blocking dependents do not hold a foreground owner', async () => {
    const owner = await gc.create(cm('fg-nb-owner'));
    const unset = await gc.create(cm('fg-nb-unset', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner)] }));
    const off = await gc.create(
      cm('fg-nb-false', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: false })] }),
    );
    await gc.delete(owner, { propagationPolicy: 'Foreground' });
    await gc.waitForGone(owner);
    for (const d of [unset, off]) {
      const live = await gc.waitFor(d, (o) => o.metadata.deletionTimestamp !== undefined, `${d.metadata.name} to be deleted too`);
      assert.deepEqual(live.metadata.finalizers, [HOLD_FINALIZER]);
      await gc.release(d);
      await gc.waitForGone(d);
    }
  });

  it('GC-FG-04: a foreground owner is removed only after every blocking descendant', async () => {
    const watch = await startWatch(`${ts.url}/api/v1/namespaces/${NS}/configmaps?watch=true&labelSelector=tree%3Dfg4`);
    try {
      const labels = { tree: 'fg4' };
      const owner = await gc.create(cm('fg4-owner', { labels }));
      const names: string[] = [];
      for (let i = 0; i < 3; i++) {
        const mid = await gc.create(
          cm(`fg4-mid-${i}`, { labels, ownerReferences: [ownerRef(owner, { controller: true, blockOwnerDeletion: true })] }),
        );
        await gc.create(cm(`fg4-leaf-${i}`, { labels, ownerReferences: [ownerRef(mid, { controller: true, blockOwnerDeletion: true })] }));
        names.push(`fg4-mid-${i}`, `fg4-leaf-${i}`);
      }
      await gc.delete(owner, { propagationPolicy: 'Foreground' });
      await gc.waitForGone(owner);
      const deleted = (name: string): number => watch.events.findIndex((e) => e.type === 'DELETED' && e.object.metadata.name === name);
      // The GET that saw the owner gone can answer before the watch stream has carried its DELETED event (etcd).
      const ownerAt = await waitFor(() => (deleted('fg4-owner') >= 0 ? deleted('fg4-owner') : undefined), {
        what: 'the watch to report the owner DELETED',
      });
      for (const name of names) {
        const at = deleted(name);
        assert.ok(
          at >= 0 && at < ownerAt,
          `${name} was deleted before its foreground owner (events: ${watch.events.map((e) => `${e.type}:${e.object.metadata.name}`).join(' ')})`,
        );
      }
      for (let i = 0; i < 3; i++)
        assert.ok(deleted(`fg4-leaf-${i}`) < deleted(`fg4-mid-${i}`), 'R4.28: mids are deleted in foreground after their leaves');
    } finally {
      await watch.stop();
    }
  });

  it('GC-FG-04, R2.41: kubectl --cascade=foreground returns once the owner is gone, and its blocking pods went first', async () => {
    const rs = await gc.create(replicaSet(NS, 'fg-rs'));
    const pods = [
      await gc.create(pod(NS, 'fg-rs-a', { ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] })),
      await gc.create(pod(NS, 'fg-rs-b', { ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] })),
    ];
    await ts.kubectlOk(['delete', 'replicaset', 'fg-rs', '-n', NS, '--cascade=foreground']);
    assert.equal(await gc.get(rs), undefined);
    for (const p of pods) assert.equal(await gc.get(p), undefined, `${p.metadata.name} is gone before its foreground owner`);
  });

  it('R4.13, R4.31: a dependent that stops blocking lets its waiting foreground owner finish', async () => {
    const owner = await gc.create(cm('unblock-owner'));
    const dep = await gc.create(
      cm('unblock-dep', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
    );
    await gc.delete(owner, { propagationPolicy: 'Foreground' });
    await gc.waitFor(dep, (o) => o.metadata.deletionTimestamp !== undefined, 'the dependent to be deleted');
    await gc.settle({ namespace: NS });
    assert.ok(await gc.get(owner), 'held by its blocking dependent');
    await gc.mergePatch(dep, { metadata: { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: false })] } });
    await gc.waitForGone(owner);
    await gc.release(dep);
    await gc.waitForGone(dep);
  });

  it('R4.29: a collected dependent carrying its own orphan finalizer is deleted with Orphan, so its dependents survive', async () => {
    const owner = await gc.create(cm('nested-orphan-owner'));
    const middle = await gc.create(cm('nested-orphan-middle', { finalizers: ['orphan'], ownerReferences: [ownerRef(owner)] }));
    const leaf = await gc.create(cm('nested-orphan-leaf', { ownerReferences: [ownerRef(middle)] }));
    await gc.delete(owner);
    await gc.waitForGone(middle);
    await gc.settle({ namespace: NS });
    const live = await gc.get(leaf);
    assert.ok(live, 'orphaned, not collected');
    assert.equal(live.metadata.ownerReferences, undefined);
  });

  it('GC-FG-05: foreground deletion of an object without dependents completes', async () => {
    const lone = await gc.create(cm('fg-lone'));
    const res = await gc.delete(lone, { propagationPolicy: 'Foreground' });
    assert.deepEqual(res.json.metadata.finalizers, ['foregroundDeletion']);
    await gc.waitForGone(lone);
  });

  it('GC-BG-03, R4.27, R4.37: a solid owner keeps a dependent; the reference to the deleted owner is pruned', async () => {
    const o1 = await gc.create(cm('multi-o1'));
    const o2 = await gc.create(cm('multi-o2'));
    const dep = await gc.create(cm('multi-dep', { ownerReferences: [ownerRef(o1), ownerRef(o2)] }));
    await gc.delete(o1);
    const kept = await gc.waitFor(dep, (o) => ownerUids(o).length === 1, 'the reference to o1 to be pruned');
    assert.deepEqual(kept.metadata.ownerReferences, [ownerRef(o2)]);
    assert.equal(kept.metadata.deletionTimestamp, undefined);
    await gc.delete(o2);
    await gc.waitForGone(dep);
  });

  it('GC-FG-03, D1: a dependent with a solid owner drops its blocking reference to a foreground owner, which finishes', async () => {
    const doomed = await gc.create(cm('d1-doomed'));
    const solid = await gc.create(cm('d1-solid'));
    const dep = await gc.create(cm('d1-dep', { ownerReferences: [ownerRef(doomed, { blockOwnerDeletion: true }), ownerRef(solid)] }));
    await gc.delete(doomed, { propagationPolicy: 'Foreground' });
    await gc.waitForGone(doomed);
    const kept = await gc.get(dep);
    assert.ok(kept);
    assert.deepEqual(kept.metadata.ownerReferences, [ownerRef(solid)]);
    assert.equal(kept.metadata.deletionTimestamp, undefined);
  });

  it('FIN-01, D3: a background DELETE of an owner with a custom finalizer keeps the dependents until the owner is really gone', async () => {
    const owner = await gc.create(cm('fin-bg-owner', { finalizers: [HOLD_FINALIZER] }));
    const dep = await gc.create(cm('fin-bg-dep', { ownerReferences: [ownerRef(owner)] }));
    const first = await gc.delete(owner, { propagationPolicy: 'Background' });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.json.metadata.finalizers, [HOLD_FINALIZER]);
    const second = await gc.delete(owner);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.json.metadata.resourceVersion, first.json.metadata.resourceVersion, 'R2.32: a repeated DELETE is a no-op');
    await gc.settle({ namespace: NS });
    const live = await gc.get(dep);
    assert.ok(live, 'the terminating owner still exists, so it is a solid owner (R4.26e)');
    assert.deepEqual(ownerUids(live), [owner.metadata.uid]);
    await gc.release(owner);
    await gc.waitForGone(owner);
    await gc.waitForGone(dep);
  });

  it('D3: a foreground DELETE of an owner with a custom finalizer collects the dependents before the finalizer goes', async () => {
    const owner = await gc.create(cm('fin-fg-owner', { finalizers: [HOLD_FINALIZER] }));
    const dep = await gc.create(cm('fin-fg-dep', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }));
    const first = await gc.delete(owner, { propagationPolicy: 'Foreground' });
    assert.deepEqual(first.json.metadata.finalizers, [HOLD_FINALIZER, 'foregroundDeletion']);
    await gc.waitForGone(dep);
    const waiting = await gc.waitFor(
      owner,
      (o) => !o.metadata.finalizers.includes('foregroundDeletion'),
      'foregroundDeletion to be removed',
    );
    assert.deepEqual(waiting.metadata.finalizers, [HOLD_FINALIZER]);
    // R2.32: without options the existing finalizers decide; nothing is left for the GC to add.
    const second = await gc.delete(owner);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.json.metadata.finalizers, [HOLD_FINALIZER]);
    await gc.release(owner);
    await gc.waitForGone(owner);
  });

  it('GC-BG-04, R4.3, R4.23: dependents of an owner uid that never existed are collected', async () => {
    const orphanOfGhost = await gc.create(cm('ghost-dep', { ownerReferences: [ghostRef('v1', 'ConfigMap', 'ghost')] }));
    const orphanOfGhostSecret = await gc.create(cm('ghost-secret-dep', { ownerReferences: [ghostRef('v1', 'Secret', 'ghost')] }));
    const solid = await gc.create(cm('ghost-solid'));
    const mixed = await gc.create(cm('ghost-mixed', { ownerReferences: [ghostRef('v1', 'ConfigMap', 'ghost-2'), ownerRef(solid)] }));
    await gc.waitForGone(orphanOfGhost);
    await gc.waitForGone(orphanOfGhostSecret);
    const kept = await gc.waitFor(mixed, (o) => ownerUids(o).length === 1, 'the reference to the ghost to be pruned');
    assert.deepEqual(kept.metadata.ownerReferences, [ownerRef(solid)]);
  });

  it('R4.26d: an owner recreated under the same name does not adopt the old dependents', async () => {
    const first = await gc.create(cm('reborn'));
    const del = await gc.delete(first);
    assert.equal(del.status, 200, del.text);
    const second = await gc.create(cm('reborn'));
    assert.notEqual(second.metadata.uid, first.metadata.uid);
    const stale = await gc.create(cm('reborn-stale-dep', { ownerReferences: [ownerRef(first)] }));
    const current = await gc.create(cm('reborn-current-dep', { ownerReferences: [ownerRef(second)] }));
    await gc.waitForGone(stale);
    await gc.settle({ namespace: NS });
    assert.ok(await gc.get(second));
    const live = await gc.get(current);
    assert.ok(live);
    assert.deepEqual(ownerUids(live), [second.metadata.uid]);
  });

  it('GC-BG-07, R4.28, D5: a blockOwnerDeletion cycle deleted in foreground finishes', async () => {
    const a = await gc.create(cm('cycle-a'));
    const b = await gc.create(cm('cycle-b', { ownerReferences: [ownerRef(a, { controller: true, blockOwnerDeletion: true })] }));
    const c = await gc.create(cm('cycle-c', { ownerReferences: [ownerRef(b, { controller: true, blockOwnerDeletion: true })] }));
    await gc.mergePatch(a, { metadata: { ownerReferences: [ownerRef(c, { controller: true, blockOwnerDeletion: true })] } });
    const res = await gc.delete(a, { propagationPolicy: 'Foreground' });
    assert.equal(res.status, 200, res.text);
    for (const o of [a, b, c]) await gc.waitForGone(o, 8000);
  });

  it('GC-BG-07, R4.28: a two-object cycle deleted in foreground finishes', async () => {
    const a = await gc.create(cm('pair-a'));
    const b = await gc.create(cm('pair-b', { ownerReferences: [ownerRef(a, { blockOwnerDeletion: true })] }));
    await gc.mergePatch(a, { metadata: { ownerReferences: [ownerRef(b, { blockOwnerDeletion: true })] } });
    await gc.delete(a, { propagationPolicy: 'Foreground' });
    for (const o of [a, b]) await gc.waitForGone(o, 8000);
  });

  it('R2.31, R2.33, D13: switching Foreground→Orphan mid-cascade orphans what is left and lets the owner go', async () => {
    const owner = await gc.create(cm('switch-owner'));
    const held = [
      await gc.create(
        cm('switch-held-a', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
      ),
      await gc.create(
        cm('switch-held-b', { finalizers: [HOLD_FINALIZER], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }),
      ),
    ];
    const plain = await gc.create(cm('switch-plain', { ownerReferences: [ownerRef(owner)] }));
    await gc.delete(owner, { propagationPolicy: 'Foreground' });
    await gc.waitForGone(plain);
    for (const h of held) await gc.waitFor(h, (o) => o.metadata.deletionTimestamp !== undefined, `${h.metadata.name} to be deleted`);

    const res = await gc.delete(owner, { propagationPolicy: 'Orphan' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.metadata.finalizers, ['orphan']);
    await gc.waitForGone(owner);
    for (const h of held) {
      const live = await gc.get(h);
      assert.ok(live, 'R2.33: a dependent already being deleted is not restored, but it is not removed either');
      assert.ok(live.metadata.deletionTimestamp);
      assert.equal(live.metadata.ownerReferences, undefined, 'R4.34: the orphaning owner is removed from it');
      await gc.release(h);
      await gc.waitForGone(h);
    }
    assert.equal(await gc.get(plain), undefined, 'R2.33: already collected dependents stay gone');
  });
});
