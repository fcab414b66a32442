import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { CascadePreview } from '../../tools/preview.js';
import { captureIo, eventually, exists, installWidgets, objects, ownerRef, REFS, startToolServer, type ToolServer } from '../../tools/testing/harness.js';
import type { CascadeTree, TreeNode } from '../../tools/tree.js';
import { deleteCommand } from './delete.js';
import { treeCommand } from './tree.js';

interface Created {
  readonly name: string;
  readonly ref: ResourceRef;
  readonly object: KubeObject;
}

/**
 * An ownership tree with several owners and mixed blocking: two ReplicaSets under a Deployment (one blocking,
 * one not), pods shared between them or with a solid ConfigMap, a custom resource, a cluster-scoped second
 * owner, a cluster-scoped dependent of a namespaced owner (R4.39) and a ReplicaSet carrying the orphan finalizer.
 */
async function buildOwnershipTree(ts: ToolServer, ns: string): Promise<Map<string, Created>> {
  const all = new Map<string, Created>();
  const make = async (name: string, ref: ResourceRef, obj: KubeObject): Promise<KubeObject> => {
    const created = await ts.client.create(ref, obj.metadata.namespace, obj);
    const object = { ...created, apiVersion: obj.apiVersion, kind: obj.kind };
    all.set(name, { name, ref, object });
    return object;
  };
  const blocking = { blockOwnerDeletion: true, controller: true };
  await ts.client.create(REFS.namespaces, undefined, objects.namespace(ns));
  const keeper = await make('keeper', REFS.configmaps, objects.configMap(ns, 'keeper'));
  const clusterKeeper = await make('cluster-keeper', REFS.clusterroles, objects.clusterRole(`${ns}-keeper`));
  const app = await make('app', REFS.deployments, objects.deployment(ns, 'app'));
  const rs1 = await make('rs1', REFS.replicasets, objects.replicaSet(ns, 'app-rs1', { ownerReferences: [ownerRef(app, blocking)] }));
  const rs2 = await make('rs2', REFS.replicasets, objects.replicaSet(ns, 'app-rs2', { ownerReferences: [ownerRef(app)] }));
  const rs3 = await make('rs3', REFS.replicasets, objects.replicaSet(ns, 'app-rs3', { finalizers: ['orphan'], ownerReferences: [ownerRef(app, blocking)] }));
  const podA = await make('pod-a', REFS.pods, objects.pod(ns, 'pod-a', { ownerReferences: [ownerRef(rs1, blocking)] }));
  await make('pod-b', REFS.pods, objects.pod(ns, 'pod-b', { ownerReferences: [ownerRef(rs1, blocking), ownerRef(keeper)] }));
  await make('pod-c', REFS.pods, objects.pod(ns, 'pod-c', { ownerReferences: [ownerRef(rs1, blocking), ownerRef(rs2)] }));
  await make('pod-d', REFS.pods, objects.pod(ns, 'pod-d', { ownerReferences: [ownerRef(rs3, blocking)] }));
  await make('cm-x', REFS.configmaps, objects.configMap(ns, 'cm-x', { ownerReferences: [ownerRef(podA)] }));
  await make('widget', REFS.widgets, objects.widget(ns, 'w1', { ownerReferences: [ownerRef(rs2, { blockOwnerDeletion: true })] }));
  await make('cm-shared', REFS.configmaps, objects.configMap(ns, 'cm-shared', { ownerReferences: [ownerRef(rs2), ownerRef(clusterKeeper)] }));
  await make('never', REFS.clusterroles, objects.clusterRole(`${ns}-never`, { ownerReferences: [ownerRef(rs1)] }));
  // D4: blockOwnerDeletion only holds for dependents the collector has seen.
  const gc = ts.server.controllers.garbageCollector;
  for (const { object } of all.values()) {
    await eventually(async () => (gc?.graphOf(object.metadata.uid ?? '') === undefined ? undefined : true), `the collector to see ${object.metadata.name}`);
  }
  return all;
}

function nameOf(all: Map<string, Created>, uid: string): string {
  for (const c of all.values()) if (c.object.metadata.uid === uid) return c.name;
  return `unknown:${uid}`;
}

function treeUids(node: TreeNode, into: Set<string> = new Set()): Set<string> {
  for (const child of node.children) {
    into.add(child.object.uid);
    treeUids(child, into);
  }
  return into;
}

async function previewOf(client: ApiClient, args: string[]): Promise<CascadePreview> {
  const io = captureIo();
  const code = await deleteCommand(client, [...args, '--preview', '-o', 'json'], io);
  assert.equal(code, 0, io.err());
  return JSON.parse(io.out()) as CascadePreview;
}

async function treeOf(client: ApiClient, args: string[]): Promise<CascadeTree> {
  const io = captureIo();
  const code = await treeCommand(client, [...args, '-o', 'json'], io);
  assert.equal(code, 0, io.err());
  return JSON.parse(io.out()) as CascadeTree;
}

/** Deletes for real and checks the collector deleted exactly what the preview said, and pruned what it said. */
async function assertCollectorAgrees(ts: ToolServer, all: Map<string, Created>, ns: string, policy: string, preview: CascadePreview): Promise<void> {
  const io = captureIo();
  const code = await deleteCommand(ts.client, ['deployment/app', '-n', ns, `--cascade=${policy}`, '--timeout=20s'], io, { namespace: 'default' }, { intervalMs: 20 });
  assert.equal(code, 0, io.err());
  assert.match(io.out(), /^deployment\.apps "app" deleted/);
  assert.match(io.out(), /cascade complete/);
  assert.match(io.err(), /0\/\d+ remaining/);
  const survivors = new Map(preview.survivors.map((s) => [s.object.uid, s]));
  // Settled: every survivor has lost exactly the references the preview listed (R4.27, R4.34).
  for (const s of preview.survivors) {
    const created = [...all.values()].find((c) => c.object.metadata.uid === s.object.uid);
    assert.ok(created);
    const before = (created.object.metadata.ownerReferences ?? []).map((r) => r.uid);
    const lost = new Set(s.losesReferencesTo.map((r) => r.uid));
    const expected = before.filter((uid) => !lost.has(uid));
    await eventually(async () => {
      const live = await ts.client.get(created.ref, created.object.metadata.namespace, created.object.metadata.name ?? '');
      const uids = (live.metadata.ownerReferences ?? []).map((r) => r.uid);
      return JSON.stringify(uids) === JSON.stringify(expected) ? true : undefined;
    }, `${s.object.name} to keep references ${JSON.stringify(expected)}`);
    assert.equal(s.orphaned, expected.length === 0);
  }
  const gone: string[] = [];
  for (const c of all.values()) if (!(await exists(ts.client, c.ref, c.object))) gone.push(c.name);
  const predicted = preview.deleted.map((d) => nameOf(all, d.object.uid));
  assert.deepEqual(gone.sort(), [...predicted].sort());
  for (const uid of survivors.keys()) assert.ok(!predicted.includes(nameOf(all, uid)));
}

describe('cascade tree and delete --preview agree with the garbage collector', () => {
  let ts: ToolServer;

  before(async () => {
    ts = await startToolServer();
    await installWidgets(ts);
  });
  after(async () => {
    await ts.stop();
  });

  it('foreground: R4.28 overrides the orphan finalizer, D1 keeps a dependent with a solid owner, R4.39 is never collected', async () => {
    const ns = 'preview-fg';
    const all = await buildOwnershipTree(ts, ns);
    const preview = await previewOf(ts.client, ['deployment/app', '-n', ns, '--cascade=foreground']);
    assert.equal(preview.kind, 'CascadePreview');
    assert.equal(preview.propagationPolicy, 'Foreground');
    const deleted = new Map(preview.deleted.map((d) => [nameOf(all, d.object.uid), d]));
    assert.deepEqual([...deleted.keys()].sort(), ['app', 'cm-x', 'pod-a', 'pod-c', 'pod-d', 'rs1', 'rs2', 'rs3', 'widget']);
    assert.equal(preview.deleted[0]?.object.name, 'app');
    assert.equal(deleted.get('rs3')?.policy, 'Foreground');
    assert.equal(deleted.get('rs1')?.policy, 'Foreground');
    // R4.28: pod-a owns cm-x and its owner waits, so it too is deleted in the foreground; pod-c owns nothing.
    assert.equal(deleted.get('pod-a')?.policy, 'Foreground');
    assert.equal(deleted.get('pod-c')?.policy, 'Background');
    assert.deepEqual(deleted.get('widget')?.object.resource, 'widgets.example.com');
    assert.deepEqual(deleted.get('app')?.waitsFor.map((r) => r.name).sort(), ['app-rs1', 'app-rs3']);
    assert.deepEqual(deleted.get('pod-c')?.via.map((r) => r.name).sort(), ['app-rs1', 'app-rs2']);
    assert.deepEqual(
      preview.survivors.map((s) => [nameOf(all, s.object.uid), s.reason, s.losesReferencesTo.map((r) => r.name), s.keptBy.map((r) => r.name)]),
      [
        ['never', 'never-collected', [], []],
        ['cm-shared', 'kept-by-other-owner', ['app-rs2'], [`${ns}-keeper`]],
        ['pod-b', 'kept-by-other-owner', ['app-rs1'], ['keeper']],
      ],
    );
    assert.deepEqual(preview.invalidReferences.map((i) => [i.object.name, i.problems.map((p) => p.problem)]), [[`${ns}-never`, ['namespaced-owner-of-cluster-scoped-dependent']]]);

    const tree = await treeOf(ts.client, ['deploy/app', '-n', ns]);
    assert.equal(tree.direction, 'dependents');
    const expectedTree = new Set([...preview.deleted.map((d) => d.object.uid), ...preview.survivors.map((s) => s.object.uid)]);
    expectedTree.delete(preview.target.uid);
    assert.deepEqual([...treeUids(tree.root)].sort(), [...expectedTree].sort());
    const rs1Node = tree.root.children.find((c) => c.object.name === 'app-rs1');
    assert.equal(rs1Node?.link?.blockOwnerDeletion, true);
    assert.equal(rs1Node?.link?.controller, true);
    assert.equal(rs1Node?.children.find((c) => c.object.name === `${ns}-never`)?.link?.problem, 'namespaced-owner-of-cluster-scoped-dependent');

    await assertCollectorAgrees(ts, all, ns, 'foreground', preview);
  });

  it('background: an intermediate owner with the orphan finalizer orphans its dependents (R4.29, R4.34)', async () => {
    const ns = 'preview-bg';
    const all = await buildOwnershipTree(ts, ns);
    const preview = await previewOf(ts.client, ['deployments.apps/app', '-n', ns]);
    assert.equal(preview.propagationPolicy, 'Background');
    const deleted = new Map(preview.deleted.map((d) => [nameOf(all, d.object.uid), d]));
    assert.deepEqual([...deleted.keys()].sort(), ['app', 'cm-x', 'pod-a', 'pod-c', 'rs1', 'rs2', 'rs3', 'widget']);
    assert.equal(deleted.get('rs3')?.policy, 'Orphan');
    const podD = preview.survivors.find((s) => nameOf(all, s.object.uid) === 'pod-d');
    assert.deepEqual([podD?.reason, podD?.orphaned, podD?.losesReferencesTo.map((r) => r.name)], ['orphan-policy', true, ['app-rs3']]);
    await assertCollectorAgrees(ts, all, ns, 'background', preview);
  });

  it('orphan: only the target goes and its direct dependents lose their reference (R4.34–R4.36)', async () => {
    const ns = 'preview-orphan';
    const all = await buildOwnershipTree(ts, ns);
    const preview = await previewOf(ts.client, ['deploy', 'app', '-n', ns, '--cascade', 'orphan']);
    assert.deepEqual(preview.deleted.map((d) => d.object.name), ['app']);
    assert.deepEqual(preview.survivors.map((s) => [s.object.name, s.reason, s.orphaned]), [
      ['app-rs1', 'orphan-policy', true],
      ['app-rs2', 'orphan-policy', true],
      ['app-rs3', 'orphan-policy', true],
    ]);
    const tree = await treeOf(ts.client, ['deploy/app', '-n', ns]);
    assert.deepEqual(tree.root.children.map((c) => c.object.uid).sort(), preview.survivors.map((s) => s.object.uid).sort());
    await assertCollectorAgrees(ts, all, ns, 'orphan', preview);
  });

  it('tree --owners climbs to cluster-scoped owners and shows unresolvable ones', async () => {
    const ns = 'owners';
    const all = await buildOwnershipTree(ts, ns);
    const shared = all.get('cm-shared');
    assert.ok(shared);
    const tree = await treeOf(ts.client, ['configmap/cm-shared', '-n', ns, '--owners']);
    assert.equal(tree.direction, 'owners');
    assert.deepEqual(tree.root.children.map((c) => [c.object.kind, c.object.name, c.object.namespace]), [
      ['ReplicaSet', 'app-rs2', ns],
      ['ClusterRole', `${ns}-keeper`, undefined],
    ]);
    assert.deepEqual(tree.root.children[0]?.children.map((c) => c.object.name), ['app']);
    // R4.39: a cluster-scoped object's reference to a namespaced kind resolves to nothing.
    const never = await treeOf(ts.client, [`clusterrole/${ns}-never`, '--owners']);
    assert.deepEqual(never.root.children.map((c) => [c.object.name, c.object.namespace, c.state, c.link?.problem]), [
      ['app-rs1', undefined, undefined, 'namespaced-owner-of-cluster-scoped-dependent'],
    ]);
    const io = captureIo();
    assert.equal(await treeCommand(ts.client, ['deploy/app', '-n', ns], io), 0);
    assert.match(io.out(), /^NAMESPACE\s+NAME\s+DELETION STATE$/m);
    assert.match(io.out(), /^owners {5}├─ReplicaSet\/app-rs1 +blockOwnerDeletion; controller$/m);
    assert.match(io.out(), /^\(cluster\) {2}│ ├─ClusterRole\/owners-never +invalid reference: namespaced-owner-of-cluster-scoped-dependent$/m);
  });
});
