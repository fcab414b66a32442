import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/wait-for.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 23: the StatefulSet and DaemonSet controllers driven by kubectl on three simulated nodes (the scheduler binds
 * pods and the simulated kubelets make them Ready), as WL-12, WL-13, WL-15 and WL-16 of the workloads spec describe.
 */
const NS = 'sets';

interface Obj {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    generation?: number;
    ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[];
    deletionTimestamp?: string;
    creationTimestamp: string;
  };
  spec: any;
  status?: any;
  revision?: number;
}

const STATEFUL_SET = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: nginx
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: nginx}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

const DAEMON_SET = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: agent:1}]}
`;

describe('StatefulSet and DaemonSet controllers with kubectl (issue 23)', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const list = async (path: string): Promise<Obj[]> => (await ts.request('GET', path)).json.items as Obj[];
  const pods = async (prefix: string): Promise<Obj[]> =>
    (await list(`/api/v1/namespaces/${NS}/pods`)).filter(
      (p) => p.metadata.name.startsWith(prefix) && p.metadata.deletionTimestamp === undefined,
    );
  const names = (objs: Obj[]): string[] => objs.map((o) => o.metadata.name).sort();
  const claims = (): Promise<Obj[]> => list(`/api/v1/namespaces/${NS}/persistentvolumeclaims`);
  const revisions = async (owner: string): Promise<Obj[]> =>
    (await list(`/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).filter((r) => r.metadata.ownerReferences?.[0]?.name === owner);
  const get = async (resource: string, name: string): Promise<Obj> =>
    (await ts.request('GET', `/apis/apps/v1/namespaces/${NS}/${resource}/${name}`)).json;
  const ready = (p: Obj): boolean => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
  const events = async (name: string): Promise<string[]> =>
    (await list(`/api/v1/namespaces/${NS}/events`))
      .filter((e: any) => e.involvedObject.name === name)
      .map((e: any) => `${e.reason} ${e.message}`);

  before(async () => {
    ts = await startTestServer({ simulateNodes: 3 });
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('WL-12: a StatefulSet creates web-0, web-1, web-2 in order, each after its predecessor is Ready, and a claim for each first', async () => {
    assert.match(await ts.kubectlOk(['apply', '-f', '-', '-n', NS], { input: STATEFUL_SET }), /statefulset.apps\/web created/);
    const status = await ts.kubectl(['rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s']);
    assert.equal(status.code, 0, status.stderr);
    // Defaulting sets a partition, so kubectl takes its partitioned branch even for a plain rollout (W1).
    assert.match(status.stdout, /partitioned roll out complete: 3 new pods have been updated\.\.\.\n$/);
    const all = await pods('web-');
    assert.deepEqual(names(all), ['web-0', 'web-1', 'web-2']);
    const byName = new Map(all.map((p) => [p.metadata.name, p]));
    for (const [previous, next] of [
      ['web-0', 'web-1'],
      ['web-1', 'web-2'],
    ] as const) {
      const readyAt = byName.get(previous)?.status.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime;
      assert.ok((byName.get(next)?.metadata.creationTimestamp ?? '') >= readyAt, `${next} created after ${previous} became Ready`);
    }
    const web1 = byName.get('web-1') as Obj;
    const set = await get('statefulsets', 'web');
    assert.equal(web1.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-1');
    assert.equal(web1.metadata.labels?.['apps.kubernetes.io/pod-index'], '1');
    assert.equal(web1.metadata.labels?.['controller-revision-hash'], set.status.updateRevision);
    assert.deepEqual([web1.spec.hostname, web1.spec.subdomain], ['web-1', 'nginx']);
    assert.deepEqual(web1.spec.volumes[0], { name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } });
    assert.deepEqual(
      web1.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]),
      [['StatefulSet', 'web', set.metadata.uid, true]],
    );
    const pvcs = await claims();
    assert.deepEqual(names(pvcs), ['data-web-0', 'data-web-1', 'data-web-2']);
    // Retain/Retain (the default): the claims have no owner.
    assert.deepEqual(
      pvcs.map((c) => [c.metadata.labels, c.metadata.ownerReferences]),
      Array(3).fill([{ app: 'web' }, undefined]),
    );
    assert.deepEqual(
      {
        replicas: set.status.replicas,
        readyReplicas: set.status.readyReplicas,
        currentReplicas: set.status.currentReplicas,
        updatedReplicas: set.status.updatedReplicas,
        availableReplicas: set.status.availableReplicas,
        observedGeneration: set.status.observedGeneration,
        collisionCount: set.status.collisionCount,
        same: set.status.currentRevision === set.status.updateRevision,
      },
      {
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        observedGeneration: 1,
        collisionCount: 0,
        same: true,
      },
    );
    const recorded = await events('web');
    for (const i of [0, 1, 2]) {
      assert.ok(
        recorded.includes(`SuccessfulCreate create Claim data-web-${i} Pod web-${i} in StatefulSet web success`),
        recorded.join('\n'),
      );
      assert.ok(recorded.includes(`SuccessfulCreate create Pod web-${i} in StatefulSet web successful`), recorded.join('\n'));
    }
  });

  it('WL-12: scaling down deletes web-2 then web-1 and keeps their claims', async () => {
    assert.match(await k('scale', 'statefulset/web', '--replicas=1'), /statefulset.apps\/web scaled/);
    await waitFor(
      async () => (await list(`/api/v1/namespaces/${NS}/pods`)).filter((p) => p.metadata.name.startsWith('web-')).length === 1,
      {
        timeoutMs: 30_000,
        what: 'only web-0 left',
      },
    );
    assert.deepEqual(names(await pods('web-')), ['web-0']);
    assert.deepEqual(names(await claims()), ['data-web-0', 'data-web-1', 'data-web-2']);
    const recorded = await events('web');
    assert.ok(recorded.includes('SuccessfulDelete delete Pod web-2 in StatefulSet web successful'));
    assert.ok(recorded.includes('SuccessfulDelete delete Pod web-1 in StatefulSet web successful'));
    await k('scale', 'statefulset/web', '--replicas=3');
    await waitFor(async () => (await pods('web-')).filter(ready).length === 3, { timeoutMs: 30_000, what: 'three Ready pods again' });
  });

  it('WL-13: an update with partition 2 replaces only web-2; partition 0 finishes the rollout; undo goes back', async () => {
    const before = await get('statefulsets', 'web');
    await k('patch', 'statefulset/web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}');
    await k('set', 'image', 'statefulset/web', 'nginx=nginx:2');
    const partial = await ts.kubectl(['rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s']);
    assert.equal(partial.code, 0, partial.stderr);
    assert.match(partial.stdout, /partitioned roll out complete: 1 new pods have been updated\.\.\.\n$/);
    const set = await waitFor(
      async () => {
        const s = await get('statefulsets', 'web');
        return s.status.updatedReplicas === 1 && s.status.readyReplicas === 3 && s;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(set.status.currentRevision, before.status.currentRevision);
    assert.notEqual(set.status.updateRevision, set.status.currentRevision);
    const images = async (): Promise<string[]> =>
      (await pods('web-')).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1)).map((p) => p.spec.containers[0].image);
    assert.deepEqual(await images(), ['nginx', 'nginx', 'nginx:2']);
    assert.deepEqual((await revisions('web')).map((r) => r.revision).sort(), [1, 2]);

    await k('patch', 'statefulset/web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}');
    const done = await waitFor(
      async () => {
        const s = await get('statefulsets', 'web');
        return s.status.updatedReplicas === 3 && s.status.readyReplicas === 3 && s.status.currentRevision === s.status.updateRevision && s;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(done.status.currentRevision, set.status.updateRevision);
    assert.deepEqual(await images(), ['nginx:2', 'nginx:2', 'nginx:2']);

    assert.match(await k('rollout', 'undo', 'statefulset/web'), /statefulset.apps\/web rolled back/);
    await waitFor(async () => (await images()).join() === 'nginx,nginx,nginx' && (await pods('web-')).filter(ready).length === 3, {
      timeoutMs: 30_000,
      what: 'the rollback rolled out',
    });
    // The first revision is renumbered instead of copied (R12.75).
    assert.deepEqual((await revisions('web')).map((r) => r.revision).sort(), [2, 3]);
    const history = await k('rollout', 'history', 'statefulset/web');
    assert.match(history, /^statefulset.apps\/web \nREVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/);
  });

  it('kubectl delete cascades to the pods and revisions and keeps the claims (Retain)', async () => {
    assert.match(await k('delete', 'statefulset/web'), /statefulset.apps "web" deleted/);
    await waitFor(
      async () => (await list(`/api/v1/namespaces/${NS}/pods`)).filter((p) => p.metadata.name.startsWith('web-')).length === 0,
      {
        timeoutMs: 30_000,
        what: 'the pods gone',
      },
    );
    await waitFor(async () => (await revisions('web')).length === 0, { timeoutMs: 30_000, what: 'the revisions gone' });
    assert.deepEqual(names(await claims()), ['data-web-0', 'data-web-1', 'data-web-2']);
  });

  it('WL-14: whenScaled Delete gives scaled-away claims to their pods; whenDeleted Delete gives the claims to the set', async () => {
    const policy = (name: string, whenDeleted: string, whenScaled: string, replicas: number): string =>
      STATEFUL_SET.replaceAll('web', name).replace(
        'replicas: 3',
        `replicas: ${replicas}\n  persistentVolumeClaimRetentionPolicy: {whenDeleted: ${whenDeleted}, whenScaled: ${whenScaled}}`,
      );
    const claimsOf = async (set: string): Promise<Obj[]> => (await claims()).filter((c) => c.metadata.name.startsWith(`data-${set}-`));
    await ts.kubectlOk(['apply', '-f', '-', '-n', NS], { input: policy('db', 'Retain', 'Delete', 3) });
    await ts.kubectlOk(['rollout', 'status', 'statefulset/db', '-n', NS, '--timeout=60s']);
    assert.deepEqual(names(await claimsOf('db')), ['data-db-0', 'data-db-1', 'data-db-2']);
    assert.deepEqual(
      (await claimsOf('db')).map((c) => c.metadata.ownerReferences),
      [undefined, undefined, undefined],
    );
    await k('scale', 'statefulset/db', '--replicas=1');
    await waitFor(async () => names(await claimsOf('db')).join() === 'data-db-0', {
      timeoutMs: 30_000,
      what: 'the scaled-away claims deleted',
    });
    await k('delete', 'statefulset/db');
    await waitFor(async () => (await list(`/api/v1/namespaces/${NS}/pods`)).filter((p) => p.metadata.name.startsWith('db-')).length === 0, {
      timeoutMs: 30_000,
      what: 'db-0 gone',
    });
    const [kept] = await claimsOf('db');
    assert.equal(kept?.metadata.name, 'data-db-0');
    assert.equal(kept?.metadata.ownerReferences, undefined);

    await ts.kubectlOk(['apply', '-f', '-', '-n', NS], { input: policy('cache', 'Delete', 'Retain', 1) });
    const set = await get('statefulsets', 'cache');
    const owned = await waitFor(
      async () => {
        const [claim] = await claimsOf('cache');
        return claim?.metadata.ownerReferences !== undefined && claim;
      },
      { timeoutMs: 30_000, what: 'the claim owned by its set' },
    );
    assert.deepEqual(owned.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    await k('delete', 'statefulset/cache');
    await waitFor(async () => (await claimsOf('cache')).length === 0, { timeoutMs: 30_000, what: 'the claim deleted with its set' });
  });

  it('WL-15: a DaemonSet runs one pod per node, pinned by node affinity and tolerating node problems', async () => {
    assert.match(await ts.kubectlOk(['apply', '-f', '-', '-n', NS], { input: DAEMON_SET }), /daemonset.apps\/agent created/);
    const status = await ts.kubectl(['rollout', 'status', 'daemonset/agent', '-n', NS, '--timeout=60s']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /daemon set "agent" successfully rolled out\n$/);
    const all = await pods('agent-');
    assert.deepEqual(all.map((p) => p.spec.nodeName).sort(), ['kwok-node-0', 'kwok-node-1', 'kwok-node-2']);
    const ds = await get('daemonsets', 'agent');
    const [revision] = await revisions('agent');
    const one = all.find((p) => p.spec.nodeName === 'kwok-node-1') as Obj;
    assert.match(one.metadata.name, /^agent-[a-z0-9]{5}$/);
    assert.deepEqual(one.spec.affinity, {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['kwok-node-1'] }] }],
        },
      },
    });
    assert.deepEqual(
      one.spec.tolerations.map((t: any) => `${t.key}:${t.operator}:${t.effect}`),
      [
        'node.kubernetes.io/not-ready:Exists:NoExecute',
        'node.kubernetes.io/unreachable:Exists:NoExecute',
        'node.kubernetes.io/disk-pressure:Exists:NoSchedule',
        'node.kubernetes.io/memory-pressure:Exists:NoSchedule',
        'node.kubernetes.io/pid-pressure:Exists:NoSchedule',
        'node.kubernetes.io/unschedulable:Exists:NoSchedule',
      ],
    );
    // DaemonSet pods carry the revision's hash only, and the template generation (R12.77, R12.10).
    assert.equal(one.metadata.labels?.['controller-revision-hash'], revision?.metadata.labels?.['controller-revision-hash']);
    assert.equal(revision?.metadata.name, `agent-${one.metadata.labels?.['controller-revision-hash']}`);
    assert.equal(one.metadata.labels?.['pod-template-generation'], '1');
    assert.equal(ds.metadata.annotations?.['deprecated.daemonset.template.generation'], '1');
    assert.deepEqual(
      {
        desired: ds.status.desiredNumberScheduled,
        current: ds.status.currentNumberScheduled,
        ready: ds.status.numberReady,
        available: ds.status.numberAvailable,
        updated: ds.status.updatedNumberScheduled,
        misscheduled: ds.status.numberMisscheduled,
        unavailable: ds.status.numberUnavailable,
        observed: ds.status.observedGeneration,
      },
      { desired: 3, current: 3, ready: 3, available: 3, updated: 3, misscheduled: 0, unavailable: undefined, observed: 1 },
    );
    const recorded = await events('agent');
    assert.equal(recorded.filter((e) => /^SuccessfulCreate Created pod: agent-[a-z0-9]{5}$/.test(e)).length, 3, recorded.join('\n'));
  });

  it('WL-15: a node selector narrows the pods; labelling or adding a node brings a pod to it; a cordoned node keeps its pod', async () => {
    await ts.kubectlOk(['label', 'node', 'kwok-node-0', 'disk=ssd']);
    await k('patch', 'daemonset/agent', '-p', '{"spec":{"template":{"spec":{"nodeSelector":{"disk":"ssd"}}}}}');
    await waitFor(async () => (await pods('agent-')).map((p) => p.spec.nodeName).join() === 'kwok-node-0', {
      timeoutMs: 30_000,
      what: 'one pod, on kwok-node-0',
    });
    await ts.kubectlOk(['label', 'node', 'kwok-node-2', 'disk=ssd']);
    await waitFor(
      async () =>
        (await pods('agent-'))
          .map((p) => p.spec.nodeName)
          .sort()
          .join() === 'kwok-node-0,kwok-node-2',
      {
        timeoutMs: 30_000,
        what: 'a pod following the label to kwok-node-2',
      },
    );
    await ts.kubectlOk(['apply', '-f', '-'], {
      input:
        'apiVersion: v1\nkind: Node\nmetadata:\n  name: extra\n  labels: {disk: ssd}\n  annotations: {cascade.dev/simulated: "true"}\n',
    });
    await waitFor(async () => (await pods('agent-')).filter((p) => p.spec.nodeName === 'extra' && ready(p)).length === 1, {
      timeoutMs: 30_000,
      what: 'a Ready pod on the new node',
    });
    await ts.kubectlOk(['cordon', 'kwok-node-2']);
    await waitFor(async () => (await get('daemonsets', 'agent')).status.numberAvailable === 3, {
      timeoutMs: 30_000,
      what: 'three available pods',
    });
    assert.equal((await pods('agent-')).filter((p) => p.spec.nodeName === 'kwok-node-2').length, 1, 'the cordoned node keeps its pod');
    await ts.kubectlOk(['delete', 'node', 'extra']);
    await waitFor(async () => (await get('daemonsets', 'agent')).status.desiredNumberScheduled === 2, {
      timeoutMs: 30_000,
      what: 'two nodes wanted',
    });
  });

  it('WL-16: a template change rolls out node by node under maxUnavailable 1', async () => {
    await k('set', 'image', 'daemonset/agent', 'agent=agent:2');
    let worst = 0;
    const status = await waitFor(
      async () => {
        const ds = await get('daemonsets', 'agent');
        const live = (await pods('agent-')).filter(ready);
        worst = Math.max(worst, ds.status.desiredNumberScheduled - live.length);
        return (
          ds.status.observedGeneration === ds.metadata.generation &&
          ds.status.updatedNumberScheduled === 2 &&
          ds.status.numberAvailable === 2 &&
          ds
        );
      },
      { timeoutMs: 30_000, what: 'the rollout done', intervalMs: 20 },
    );
    assert.ok(worst <= 1, `at most one node without an available pod, saw ${worst}`);
    const rollout = await k('rollout', 'status', 'daemonset/agent');
    assert.equal(rollout, 'daemon set "agent" successfully rolled out\n');
    const images = (await pods('agent-')).map((p) => [p.spec.containers[0].image, p.metadata.labels?.['pod-template-generation']]);
    assert.deepEqual(images, [
      ['agent:2', '3'],
      ['agent:2', '3'],
    ]);
    assert.equal((await revisions('agent')).length, 3);
    assert.equal(status.metadata.name, 'agent');
    await k('delete', 'daemonset/agent');
    await waitFor(
      async () => (await list(`/api/v1/namespaces/${NS}/pods`)).filter((p) => p.metadata.name.startsWith('agent-')).length === 0,
      {
        timeoutMs: 30_000,
        what: 'the daemon pods gone',
      },
    );
  });

  it('R12.168: an orphaning delete of a DaemonSet finishes (its deletion generation is acknowledged) and leaves the pods', async () => {
    await ts.kubectlOk(['apply', '-f', '-', '-n', NS], { input: DAEMON_SET.replaceAll('agent', 'keeper') });
    await waitFor(async () => (await pods('keeper-')).filter(ready).length === 3, { timeoutMs: 30_000, what: 'three keeper pods' });
    assert.equal(await k('delete', 'daemonset/keeper', '--cascade=orphan'), 'daemonset.apps "keeper" deleted\n');
    assert.equal((await ts.request('GET', `/apis/apps/v1/namespaces/${NS}/daemonsets/keeper`)).status, 404);
    const left = await pods('keeper-');
    assert.deepEqual(
      left.map((p) => p.metadata.ownerReferences),
      [undefined, undefined, undefined],
    );
    await k('delete', 'pods', '-l', 'app=keeper');
  });

  it('deleting a namespace with a StatefulSet and a DaemonSet inside empties it and finishes', async () => {
    await ts.kubectlOk(['create', 'namespace', 'doomed']);
    await ts.kubectlOk(['apply', '-f', '-', '-n', 'doomed'], { input: STATEFUL_SET.replace('replicas: 3', 'replicas: 2') });
    await ts.kubectlOk(['apply', '-f', '-', '-n', 'doomed'], { input: DAEMON_SET });
    await waitFor(async () => (await list('/api/v1/namespaces/doomed/pods')).filter(ready).length === 5, {
      timeoutMs: 30_000,
      what: 'two stateful and three daemon pods Ready',
    });
    const deleted = await ts.kubectl(['delete', 'namespace', 'doomed', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, 'namespace "doomed" deleted\n');
    assert.equal((await ts.request('GET', '/api/v1/namespaces/doomed')).status, 404);
  });
});
