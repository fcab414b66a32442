import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 23: the Deployment → ReplicaSet → Pod cascade of seed 002 driven by kubectl, with the Deployment,
 * ReplicaSet and garbage collector controllers running in the server. No kubelet runs, so the test marks pods
 * Ready through /status where a rollout has to progress.
 */
const NS = 'workloads';

interface Obj {
  metadata: {
    name: string;
    uid: string;
    ownerReferences?: { uid: string; kind: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
  };
  spec: { replicas?: number; template?: { spec: { containers: { image: string }[] } } };
  status?: Record<string, unknown>;
}

describe('workload controllers with kubectl (issue 23)', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const list = async (resource: string): Promise<Obj[]> => {
    const path = resource === 'pods' ? `/api/v1/namespaces/${NS}/pods` : `/apis/apps/v1/namespaces/${NS}/${resource}`;
    return ((await ts.request('GET', path)).json.items as Obj[]).filter((o) => o.metadata.deletionTimestamp === undefined);
  };
  const getDeployment = async (name: string): Promise<Obj> =>
    (await ts.request('GET', `/apis/apps/v1/namespaces/${NS}/deployments/${name}`)).json;
  /** What a kubelet would report for a started container that passed its readiness probe. */
  const markPodsReady = async (): Promise<void> => {
    for (const pod of await list('pods')) {
      const conditions = (pod.status?.conditions ?? []) as { type: string; status: string }[];
      if (conditions.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] };
      await ts.request('PUT', `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}/status`, { ...pod, status });
    }
  };

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl create deployment makes one ReplicaSet and its pods, each owned by a blocking controller reference', async () => {
    assert.match(await k('create', 'deployment', 'web', '--image=nginx', '--replicas=3'), /deployment.apps\/web created/);
    const web = await getDeployment('web');
    const pods = await waitFor(async () => {
      const p = await list('pods');
      return p.length === 3 && p;
    });
    const [rs, ...others] = await list('replicasets');
    assert.ok(rs);
    assert.equal(others.length, 0);
    assert.match(rs.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.deepEqual(
      rs.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller, r.blockOwnerDeletion]),
      [['Deployment', web.metadata.uid, true, true]],
    );
    for (const pod of pods) {
      assert.match(pod.metadata.name, new RegExp(`^${rs.metadata.name}-[a-z0-9]{5}$`));
      assert.deepEqual(
        pod.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller, r.blockOwnerDeletion]),
        [['ReplicaSet', rs.metadata.uid, true, true]],
      );
    }
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
  });

  it('kubectl scale resizes the ReplicaSet; kubectl set image rolls out a new one as pods become ready', async () => {
    assert.match(await k('scale', 'deployment/web', '--replicas=4'), /deployment.apps\/web scaled/);
    await waitFor(async () => (await list('pods')).length === 4);
    assert.match(await k('set', 'image', 'deployment/web', 'nginx=nginx:1.27'), /deployment.apps\/web image updated/);
    await waitFor(
      async () => {
        await markPodsReady();
        const sets = await list('replicasets');
        const d = await getDeployment('web');
        return sets.length === 2 && d.status?.updatedReplicas === 4 && d.status?.availableReplicas === 4 && d.status?.replicas === 4;
      },
      { timeoutMs: 15000 },
    );
    assert.match(await k('rollout', 'status', 'deployment/web', '--timeout=10s'), /deployment "web" successfully rolled out/);
    const history = await k('rollout', 'history', 'deployment/web');
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
  });

  it('kubectl rollout undo brings back the first template as revision 3', async () => {
    assert.match(await k('rollout', 'undo', 'deployment/web'), /deployment.apps\/web rolled back/);
    await waitFor(
      async () => {
        await markPodsReady();
        const d = await getDeployment('web');
        return (
          d.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3' &&
          d.status?.updatedReplicas === 4 &&
          d.status?.replicas === 4
        );
      },
      { timeoutMs: 15000 },
    );
    const sets = await list('replicasets');
    assert.equal(sets.length, 2);
    const current = sets.find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3');
    assert.equal(current?.spec.template?.spec.containers[0]?.image, 'nginx');
    assert.equal(current?.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
  });

  it('kubectl rollout pause shows DeploymentPaused; resume and restart roll out a new ReplicaSet', async () => {
    assert.match(await k('rollout', 'pause', 'deployment/web'), /deployment.apps\/web paused/);
    await waitFor(async () => {
      const d = await getDeployment('web');
      const progressing = (d.status?.conditions as { type: string; reason: string }[] | undefined)?.find((c) => c.type === 'Progressing');
      return progressing?.reason === 'DeploymentPaused';
    });
    assert.match(await k('rollout', 'resume', 'deployment/web'), /deployment.apps\/web resumed/);
    assert.match(await k('rollout', 'restart', 'deployment/web'), /deployment.apps\/web restarted/);
    await waitFor(
      async () => {
        await markPodsReady();
        const d = await getDeployment('web');
        return (
          d.metadata.annotations?.['deployment.kubernetes.io/revision'] === '4' &&
          d.status?.updatedReplicas === 4 &&
          d.status?.replicas === 4
        );
      },
      { timeoutMs: 15000 },
    );
    assert.equal((await list('replicasets')).length, 3);
  });

  it('--cascade=orphan keeps the ReplicaSets, and a new Deployment with the same selector adopts them', async () => {
    assert.match(await k('delete', 'deployment', 'web', '--cascade=orphan'), /deployment.apps "web" deleted/);
    await waitFor(async () => (await list('replicasets')).every((rs) => rs.metadata.ownerReferences === undefined));
    assert.equal((await list('pods')).length, 4);
    await k('create', 'deployment', 'web', '--image=nginx', '--replicas=4');
    const web = await getDeployment('web');
    await waitFor(async () => (await list('replicasets')).every((rs) => rs.metadata.ownerReferences?.[0]?.uid === web.metadata.uid));
    assert.equal((await list('replicasets')).length, 3);
  });

  it('a background delete takes the ReplicaSets and pods with it; a foreground delete returns once they are gone', async () => {
    await k('delete', 'deployment', 'web');
    await waitFor(async () => (await list('replicasets')).length === 0 && (await list('pods')).length === 0, { timeoutMs: 10000 });

    await k('create', 'deployment', 'fg', '--image=nginx', '--replicas=2');
    await waitFor(async () => (await list('pods')).length === 2);
    assert.match(await k('delete', 'deployment', 'fg', '--cascade=foreground'), /deployment.apps "fg" deleted/);
    assert.equal((await list('replicasets')).length, 0);
    await waitFor(async () => (await list('pods')).length === 0);
  });
});
