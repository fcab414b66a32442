import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  clusterRole,
  configMap,
  type GcApi,
  gcApi,
  ghostRef,
  type Json,
  namespaceObject,
  ownerRef,
  ownerUids,
  secret,
} from '../support/gc-fixtures.js';
import { startSeededServer } from '../support/gc-seeded-server.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Owner references the collector must treat as invalid or cross-scope (R4.16–R4.20, R4.26, R4.38, R4.39, D6, D7;
// scenarios GC-CS-*, GC-INV-*).
const NS_A = 'gc-inv-a';
const NS_B = 'gc-inv-b';
const REASON = 'OwnerRefInvalidNamespace';

/** R4.18: the message names the reference as if the owner lived in the dependent's namespace. */
function invalidNamespaceMessage(ref: Json, dependentNamespace: string): string {
  return `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${dependentNamespace}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace "${dependentNamespace}"`;
}

/** Waits for the single OwnerRefInvalidNamespace event about `dependent` and checks its shape (R4.18). */
async function expectInvalidNamespaceEvent(gc: GcApi, dependent: Json, ref: Json): Promise<void> {
  const dependentNamespace: string = dependent.metadata.namespace ?? '';
  // Events about cluster-scoped objects are recorded in "default".
  const eventNamespace = dependentNamespace === '' ? 'default' : dependentNamespace;
  const events = await waitFor(
    async () => {
      const found = (await gc.events(eventNamespace, REASON)).filter((e) => e.involvedObject?.uid === dependent.metadata.uid);
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs: 5000, what: `an ${REASON} event about ${dependent.metadata.name}` },
  );
  assert.equal(events.length, 1, JSON.stringify(events));
  const event = events[0] as Json;
  assert.equal(event.type, 'Warning');
  assert.equal(event.message, invalidNamespaceMessage(ref, dependentNamespace));
  assert.equal(event.source?.component, 'garbage-collector-controller');
  assert.equal(event.involvedObject.kind, dependent.kind);
  assert.equal(event.involvedObject.apiVersion, dependent.apiVersion);
  assert.equal(event.involvedObject.name, dependent.metadata.name);
  assert.equal(event.involvedObject.namespace, dependent.metadata.namespace);
}

async function expectNoInvalidNamespaceEvent(gc: GcApi, namespace: string, obj: Json): Promise<void> {
  const events = (await gc.events(namespace, REASON)).filter((e) => e.involvedObject?.uid === obj.metadata.uid);
  assert.deepEqual(events, [], `no ${REASON} event about ${obj.metadata.name}`);
}

/** Until the collector's graph holds the object as observed (not virtual): the owner-first observation order. */
async function waitObserved(ts: TestServer, obj: Json): Promise<void> {
  await waitFor(
    async () => {
      const res = await ts.request('GET', `/debug/gc/graph?uid=${obj.metadata.uid}`);
      const node = res.status === 200 ? (res.json.nodes as Json[]).find((n) => n.identity.uid === obj.metadata.uid) : undefined;
      return node !== undefined && node.virtual === false ? true : undefined;
    },
    { timeoutMs: 5000, what: `${obj.metadata.name} in the collector's graph` },
  );
}

describe('garbage collector: invalid and cross-scope owner references', () => {
  let ts: TestServer;
  let gc: GcApi;

  before(async () => {
    ts = await startTestServer();
    gc = gcApi(ts);
    await gc.create(namespaceObject(NS_A));
    await gc.create(namespaceObject(NS_B));
  });
  after(async () => {
    await ts.stop();
  });

  it('GC-CS-01: a cluster-scoped owner keeps namespaced dependents in any namespace, which are collected after it goes', async () => {
    const owner = await gc.create(clusterRole('gc-inv-cluster-owner'));
    const deps = [
      await gc.create(configMap(NS_A, 'of-cluster-owner', { ownerReferences: [ownerRef(owner)] })),
      await gc.create(configMap(NS_B, 'of-cluster-owner', { ownerReferences: [ownerRef(owner)] })),
    ];
    const clusterDep = await gc.create(clusterRole('gc-inv-cluster-dep', { ownerReferences: [ownerRef(owner)] }));
    await gc.settle({ namespace: NS_A });
    await gc.settle({ namespace: NS_B });
    await gc.settle('cluster');
    for (const d of [...deps, clusterDep]) {
      const live = await gc.get(d);
      assert.ok(live, `${d.metadata.namespace ?? ''}/${d.metadata.name} stays while its owner exists`);
      assert.deepEqual(ownerUids(live), [owner.metadata.uid]);
    }
    await ts.kubectlOk(['delete', 'clusterrole', 'gc-inv-cluster-owner']);
    for (const d of [...deps, clusterDep]) await gc.waitForGone(d);
  });

  it('GC-CS-02: a namespaced dependent of a cluster-scoped owner that never existed is collected', async () => {
    const dep = await gc.create(
      configMap(NS_A, 'of-missing-cluster-owner', { ownerReferences: [ghostRef('rbac.authorization.k8s.io/v1', 'ClusterRole', 'never')] }),
    );
    await gc.waitForGone(dep);
  });

  it('R4.16, R4.19, D6: one missing owner uid referenced from two namespaces and under two kinds collects every dependent', async () => {
    const ghost = ghostRef('rbac.authorization.k8s.io/v1', 'ClusterRole', 'ghost-role');
    const deps = [
      await gc.create(configMap(NS_A, 'of-ghost-role', { ownerReferences: [ghost] })),
      await gc.create(configMap(NS_B, 'of-ghost-role', { ownerReferences: [ghost] })),
      await gc.create(configMap(NS_B, 'of-ghost-as-configmap', { ownerReferences: [{ ...ghost, apiVersion: 'v1', kind: 'ConfigMap' }] })),
      await gc.create(clusterRole('gc-inv-of-ghost-role', { ownerReferences: [ghost] })),
    ];
    for (const d of deps) await gc.waitForGone(d);
  });

  it('GC-INV-01/02, R4.39, R4.26c: a cluster-scoped dependent of a namespaced owner is never collected and gets a Warning event', async () => {
    const owner = await gc.create(configMap(NS_A, 'ns-owner-of-cluster-child'));
    const validDep = await gc.create(configMap(NS_A, 'valid-dep-of-ns-owner', { ownerReferences: [ownerRef(owner)] }));
    await waitObserved(ts, owner);
    const ref = ownerRef(owner);
    const child = await gc.create(clusterRole('gc-inv-bad-cluster-child', { ownerReferences: [ref] }));

    await expectInvalidNamespaceEvent(gc, child, ref);
    await gc.settle('cluster');
    await gc.settle({ namespace: NS_A });
    const live = await gc.get(child);
    assert.ok(live, 'R4.26c: never collected');
    assert.deepEqual(live.metadata.ownerReferences, [ref], 'and its reference is left alone');
    assert.ok(await gc.get(owner), 'the owner is untouched');
    assert.ok(await gc.get(validDep), 'the valid dependent is untouched');

    // Deleting the real owner collects its valid dependent, still not the cluster-scoped child.
    await gc.delete(owner);
    await gc.waitForGone(validDep);
    await gc.settle('cluster');
    const after = await gc.get(child);
    assert.ok(after, 'R4.39: still not collected after the owner is gone');
    assert.deepEqual(after.metadata.ownerReferences, [ref]);
  });

  it('R4.26c: a cluster-scoped dependent of a namespaced kind whose owner never existed is never collected', async () => {
    // The virtual owner has no namespace coordinate, so it cannot be looked up and is never verified absent.
    const ref = ghostRef('v1', 'ConfigMap', 'nowhere');
    const child = await gc.create(clusterRole('gc-inv-cluster-child-of-ghost', { ownerReferences: [ref] }));
    await gc.settle('cluster');
    const live = await gc.get(child);
    assert.ok(live, 'not collected');
    assert.deepEqual(live.metadata.ownerReferences, [ref]);
    await expectNoInvalidNamespaceEvent(gc, 'default', child);
  });

  it('GC-INV-03/04, R4.38 (owner observed first): a dependent referencing an owner in another namespace is collected, with a Warning event', async () => {
    const owner = await gc.create(configMap(NS_B, 'xns-owner'));
    const validDep = await gc.create(configMap(NS_B, 'xns-valid-dep', { ownerReferences: [ownerRef(owner)] }));
    const localOwner = await gc.create(configMap(NS_A, 'xns-local-owner'));
    const ref = ownerRef(owner);
    const bad = await gc.create(configMap(NS_A, 'xns-bad-dep', { ownerReferences: [ref] }));
    const alsoValid = await gc.create(configMap(NS_A, 'xns-dep-with-valid-owner', { ownerReferences: [ref, ownerRef(localOwner)] }));

    await gc.waitForGone(bad);
    await expectInvalidNamespaceEvent(gc, bad, ref);

    // R4.27: a dependent that also has a valid owner is never collected; the invalid reference is pruned.
    const kept = await gc.waitFor(alsoValid, (o) => ownerUids(o).length === 1, 'the cross-namespace reference to be pruned');
    assert.deepEqual(kept.metadata.ownerReferences, [ownerRef(localOwner)]);
    assert.equal(kept.metadata.deletionTimestamp, undefined);
    await expectInvalidNamespaceEvent(gc, alsoValid, ref);

    await gc.settle({ namespace: NS_B });
    assert.ok(await gc.get(owner), 'the owner is untouched');
    assert.ok(await gc.get(validDep), 'its valid dependent is untouched');
    await expectNoInvalidNamespaceEvent(gc, NS_B, validDep);
  });

  it('GC-INV-03: wrong kind, apiVersion or name for an existing uid', async () => {
    const owner = await gc.create(configMap(NS_A, 'coords-owner'));
    const sameNameSecret = await gc.create(secret(NS_A, 'coords-owner'));
    const uid = owner.metadata.uid;
    // The Secret named like the owner exists but carries another uid: dangling (R4.26d).
    const wrongKind = await gc.create(
      configMap(NS_A, 'coords-wrong-kind', { ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name: 'coords-owner', uid }] }),
    );
    const wrongName = await gc.create(
      configMap(NS_A, 'coords-wrong-name', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'no-such-name', uid }] }),
    );
    // An apiVersion/kind no resource serves cannot be mapped: retried forever, never collected (R4.26b, D7).
    const unmapped = await gc.create(
      configMap(NS_A, 'coords-unmapped', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ConfigMap', name: 'coords-owner', uid }] }),
    );
    const good = await gc.create(configMap(NS_A, 'coords-good', { ownerReferences: [ownerRef(owner)] }));

    await gc.waitForGone(wrongKind);
    await gc.waitForGone(wrongName);
    await gc.settle({ namespace: NS_A });
    const stuck = await gc.get(unmapped);
    assert.ok(stuck, 'D7: an unresolvable reference never leads to collection');
    assert.equal(stuck.metadata.deletionTimestamp, undefined);
    assert.ok(await gc.get(good));
    assert.ok(await gc.get(owner));
    assert.ok(await gc.get(sameNameSecret));
    for (const o of [wrongKind, wrongName]) await expectNoInvalidNamespaceEvent(gc, NS_A, o);
  });
});

describe('garbage collector: observation order of cross-namespace references (R4.16, R4.17, D6)', () => {
  // The seeded server's monitors list ConfigMaps in key order, so the namespace names fix which side the graph
  // sees first: "gc-order-a" sorts before "gc-order-b".
  for (const order of ['dependent first', 'owner first'] as const) {
    it(`GC-INV-03/04 (${order}): the dependent is collected and gets exactly one Warning event; the owner and its valid dependent stay`, async () => {
      const [dependentNs, ownerNs] = order === 'dependent first' ? ['gc-order-a', 'gc-order-b'] : ['gc-order-b', 'gc-order-a'];
      const { server, seeded } = await startSeededServer(async (seeding) => {
        await seeding.create(namespaceObject(dependentNs));
        await seeding.create(namespaceObject(ownerNs));
        const owner = await seeding.create(configMap(ownerNs, 'owner'));
        const validDep = await seeding.create(configMap(ownerNs, 'valid-dep', { ownerReferences: [ownerRef(owner)] }));
        const bad = await seeding.create(configMap(dependentNs, 'bad-dep', { ownerReferences: [ownerRef(owner)] }));
        return { owner, validDep, bad };
      });
      try {
        const gc = gcApi(server);
        await gc.waitForGone(seeded.bad);
        await expectInvalidNamespaceEvent(gc, seeded.bad, ownerRef(seeded.owner));
        await gc.settle({ namespace: ownerNs });
        assert.ok(await gc.get(seeded.owner));
        const valid = await gc.get(seeded.validDep);
        assert.ok(valid);
        assert.deepEqual(ownerUids(valid), [seeded.owner.metadata.uid]);
      } finally {
        await server.stop();
      }
    });
  }

  it('GC-CS-01, D6 (seeded, either order): namespaced dependents of a cluster-scoped owner stay until it is deleted', async () => {
    const { server, seeded } = await startSeededServer(async (seeding) => {
      await seeding.create(namespaceObject('gc-order-d'));
      const owner = await seeding.create(clusterRole('gc-order-cluster-owner'));
      const deps = [
        await seeding.create(configMap('gc-order-d', 'dep-a', { ownerReferences: [ownerRef(owner)] })),
        await seeding.create(configMap('gc-order-d', 'dep-b', { ownerReferences: [ownerRef(owner)] })),
      ];
      return { owner, deps };
    });
    try {
      const gc = gcApi(server);
      await gc.settle({ namespace: 'gc-order-d' });
      await gc.settle('cluster');
      for (const d of seeded.deps) assert.ok(await gc.get(d), `${d.metadata.name} stays while its owner exists`);
      await gc.delete(seeded.owner);
      for (const d of seeded.deps) await gc.waitForGone(d);
    } finally {
      await server.stop();
    }
  });

  it('GC-INV-01/02 (seeded, either order): a cluster-scoped child of a namespaced owner is kept and reported', async () => {
    const { server, seeded } = await startSeededServer(async (seeding) => {
      await seeding.create(namespaceObject('gc-order-c'));
      const owner = await seeding.create(configMap('gc-order-c', 'owner'));
      const child = await seeding.create(clusterRole('gc-order-cluster-child', { ownerReferences: [ownerRef(owner)] }));
      return { owner, child };
    });
    try {
      const gc = gcApi(server);
      await expectInvalidNamespaceEvent(gc, seeded.child, ownerRef(seeded.owner));
      await gc.settle('cluster');
      assert.ok(await gc.get(seeded.child), 'never collected (R4.26c)');
      assert.ok(await gc.get(seeded.owner));
    } finally {
      await server.stop();
    }
  });
});
