import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import type { CascadeExplanation, ObjectExplanation } from '../../tools/explain-types.js';
import { captureIo, eventually, HOLD, installWidgets, objects, ownerRef, REFS, startToolServer, type ToolServer } from '../../tools/testing/harness.js';
import { explainCommand } from './explain.js';

async function explainJson(ts: ToolServer, args: string[]): Promise<CascadeExplanation> {
  const io = captureIo();
  const code = await explainCommand(ts.client, [...args, '-o', 'json'], io);
  assert.equal(code, 0, io.err());
  assert.equal(io.err(), '');
  return JSON.parse(io.out()) as CascadeExplanation;
}

const finalizerNames = (e: ObjectExplanation): string[] => e.finalizers.map((f) => f.name);

describe('cascade explain', () => {
  let ts: ToolServer;
  const NS = 'explain';

  before(async () => {
    ts = await startToolServer();
    await ts.client.create(REFS.namespaces, undefined, objects.namespace(NS));
  });
  after(async () => {
    await ts.stop();
  });

  it('says an object that is not being deleted is not going away, and exits 0', async () => {
    await ts.client.create(REFS.configmaps, NS, objects.configMap(NS, 'calm'));
    const doc = await explainJson(ts, ['configmap/calm', '-n', NS]);
    assert.equal(doc.kind, 'CascadeExplanation');
    assert.equal(doc.version, 1);
    assert.equal(doc.target.terminating, false);
    assert.deepEqual(doc.target.finalizers, []);
    const io = captureIo();
    assert.equal(await explainCommand(ts.client, ['cm', 'calm', '-n', NS], io), 0);
    assert.equal(io.out(), 'ConfigMap/calm (namespace explain) is not being deleted\n');
  });

  it('names a custom finalizer nothing handles', async () => {
    await ts.client.create(REFS.configmaps, NS, objects.configMap(NS, 'held', { finalizers: [HOLD] }));
    await ts.client.delete(REFS.configmaps, NS, 'held');
    const doc = await explainJson(ts, ['configmaps/held', '--namespace', NS]);
    assert.equal(doc.target.terminating, true);
    assert.equal(doc.target.object.kind, 'ConfigMap');
    assert.equal(doc.target.object.namespace, NS);
    assert.deepEqual(doc.target.finalizers, [
      { name: HOLD, component: null, home: null, inCascade: false, detail: 'unknown: nothing here handles it; whoever added it must remove it' },
    ]);
    assert.deepEqual(doc.target.blockingDependents, []);
  });

  it('R4.31: a foreground owner waits on a blocking dependent that has its own finalizer, explained recursively', async () => {
    const web = await ts.client.create(REFS.deployments, NS, objects.deployment(NS, 'web'));
    const rs = await ts.client.create(
      REFS.replicasets,
      NS,
      objects.replicaSet(NS, 'web-rs', { finalizers: [HOLD], ownerReferences: [ownerRef(web, { controller: true, blockOwnerDeletion: true })] }),
    );
    await ts.client.create(REFS.pods, NS, objects.pod(NS, 'web-rs-a', { finalizers: [HOLD], ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] }));
    // A non-blocking dependent is deleted (D2) but does not hold the owner.
    await ts.client.create(REFS.configmaps, NS, objects.configMap(NS, 'web-config', { ownerReferences: [ownerRef(web)] }));
    await ts.client.delete(REFS.deployments, NS, 'web', { propagationPolicy: 'Foreground' });
    await eventually(async () => {
      const pod = await ts.client.get(REFS.pods, NS, 'web-rs-a');
      return pod.metadata.deletionTimestamp === undefined ? undefined : pod;
    }, 'the garbage collector to delete the pod');

    const doc = await explainJson(ts, ['deploy/web', '-n', NS]);
    const target = doc.target;
    assert.equal(target.terminating, true);
    assert.deepEqual(finalizerNames(target), ['foregroundDeletion']);
    assert.equal(target.finalizers[0]?.component, 'garbage collector');
    assert.equal(target.finalizers[0]?.detail, 'waiting for 1 blocking dependent: ReplicaSet/web-rs');
    assert.equal(target.blockingDependents.length, 1);
    const rsExplained = target.blockingDependents[0]?.explanation;
    assert.ok(rsExplained);
    assert.equal(target.blockingDependents[0]?.controller, true);
    assert.equal(rsExplained.object.name, 'web-rs');
    assert.equal(rsExplained.terminating, true);
    // R4.28: deleted in the foreground because its owner waits and it has dependents of its own.
    assert.deepEqual(new Set(finalizerNames(rsExplained)), new Set([HOLD, 'foregroundDeletion']));
    assert.equal(rsExplained.finalizers.find((f) => f.name === HOLD)?.component, null);
    const podExplained = rsExplained.blockingDependents[0]?.explanation;
    assert.ok(podExplained);
    assert.equal(podExplained.object.kind, 'Pod');
    assert.equal(podExplained.terminating, true);
    assert.deepEqual(finalizerNames(podExplained), [HOLD]);
    assert.match(podExplained.finalizers[0]?.detail ?? '', /^unknown: nothing here handles it/);
    assert.deepEqual(podExplained.blockingDependents, []);

    const io = captureIo();
    await explainCommand(ts.client, ['deployment/web', '-n', NS], io);
    assert.match(io.out(), /waits for blocking dependent \(controller reference\):\n {4}ReplicaSet\/web-rs is being deleted/);
  });

  it('R5.20: a namespace with remaining content, by resource and finalizer', async () => {
    await installWidgets(ts);
    const LEFT = 'leftovers';
    await ts.client.create(REFS.namespaces, undefined, objects.namespace(LEFT));
    await ts.client.create(REFS.configmaps, LEFT, objects.configMap(LEFT, 'stuck', { finalizers: [HOLD] }));
    await ts.client.create(REFS.secrets, LEFT, objects.secret(LEFT, 'stuck-too', { finalizers: [HOLD] }));
    await ts.client.create(REFS.widgets, LEFT, objects.widget(LEFT, 'gizmo', { finalizers: ['finalizers.fluxcd.io'] }));
    await ts.client.delete(REFS.namespaces, undefined, LEFT);
    await eventually(async () => {
      const ns: KubeObject = await ts.client.get(REFS.namespaces, undefined, LEFT);
      const conditions = ((ns.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []);
      return conditions.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') ? true : undefined;
    }, 'the namespace controller to report remaining finalizers');

    const doc = await explainJson(ts, [`ns/${LEFT}`]);
    const target = doc.target;
    assert.equal(target.terminating, true);
    assert.equal(target.object.kind, 'Namespace');
    assert.equal(target.object.namespace, undefined);
    const ns = target.namespace;
    assert.ok(ns);
    assert.equal(ns.phase, 'Terminating');
    assert.deepEqual(ns.specFinalizers.map((f) => [f.name, f.component, f.inCascade]), [['kubernetes', 'namespace controller', true]]);
    assert.equal(ns.specFinalizers[0]?.detail, 'waiting for 3 objects in the namespace to be deleted');
    assert.deepEqual(
      ns.remaining.map((r) => [r.resource, r.count, r.finalizers]),
      [
        ['configmaps', 1, { [HOLD]: 1 }],
        ['secrets', 1, { [HOLD]: 1 }],
        ['widgets.example.com', 1, { 'finalizers.fluxcd.io': 1 }],
      ],
    );
    const gizmo = ns.remaining[2]?.objects[0];
    assert.equal(gizmo?.terminating, true);
    assert.equal(gizmo?.finalizers[0]?.component, 'Flux controllers');
    const types = ns.problems.map((c) => c.type).sort();
    assert.deepEqual(types, ['NamespaceContentRemaining', 'NamespaceFinalizersRemaining']);
    assert.match(ns.problems.find((c) => c.type === 'NamespaceFinalizersRemaining')?.message ?? '', /example\.com\/hold in 2 resource instances/);
    assert.deepEqual(doc.unavailableApiServices, []);
    assert.deepEqual(doc.incomplete, []);
  });

});

// Without a garbage collector invalid references stay as written, so each can be looked at (R4.38, R4.39, R4.26d).
describe('cascade explain: invalid owner references and unavailable APIs', () => {
  let ts: ToolServer;
  const NS = 'invalid-refs';

  before(async () => {
    ts = await startToolServer({ garbageCollector: false });
    await ts.client.create(REFS.namespaces, undefined, objects.namespace(NS));
  });
  after(async () => {
    await ts.stop();
  });

  it('R4.38, R4.39, R4.16, R4.26d: names each reference the collector cannot follow', async () => {
    const far = await ts.client.create(REFS.configmaps, 'default', objects.configMap('default', 'far-owner'));
    const local = await ts.client.create(REFS.configmaps, NS, objects.configMap(NS, 'local-owner'));
    const wrongKind = { ...ownerRef(local), kind: 'Secret', apiVersion: 'v1' };
    const missing = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '6a1f2c3d-0000-4000-8000-000000000001' };
    const unserved = { apiVersion: 'example.org/v9', kind: 'Nothing', name: 'n', uid: '6a1f2c3d-0000-4000-8000-000000000002' };
    await ts.client.create(
      REFS.configmaps,
      NS,
      objects.configMap(NS, 'confused', { ownerReferences: [ownerRef(local), ownerRef(far), wrongKind, missing, unserved] }),
    );
    const doc = await explainJson(ts, ['configmap/confused', '-n', NS]);
    assert.deepEqual(
      doc.target.ownerReferenceProblems.map((p) => [p.problem, p.owner.name, p.actual?.namespace]),
      [
        ['owner-in-other-namespace', 'far-owner', 'default'],
        ['coordinates-do-not-match-uid', 'local-owner', NS],
        ['owner-missing', 'ghost', undefined],
        ['owner-kind-not-served', 'n', undefined],
      ],
    );

    await ts.client.create(REFS.clusterroles, undefined, objects.clusterRole('owned-by-namespaced', { ownerReferences: [ownerRef(local)] }));
    const cluster = await explainJson(ts, ['clusterrole/owned-by-namespaced']);
    assert.deepEqual(cluster.target.ownerReferenceProblems.map((p) => p.problem), ['namespaced-owner-of-cluster-scoped-dependent']);
  });

  it('D8: reports aggregated APIs that are down', async () => {
    const apiservices = { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' };
    const created = await ts.client.create(apiservices, undefined, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, service: { namespace: 'kube-system', name: 'metrics-server' } },
    });
    await ts.client.update(
      apiservices,
      undefined,
      { ...created, status: { conditions: [{ type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: 'failing or missing response' }] } },
      'status',
    );
    const doc = await explainJson(ts, [`ns/${NS}`]);
    assert.deepEqual(doc.unavailableApiServices, [{ name: 'v1beta1.metrics.k8s.io', reason: 'FailedDiscoveryCheck', message: 'failing or missing response' }]);
  });
});
