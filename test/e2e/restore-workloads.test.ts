import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 28 with the workload controllers running: a restored Deployment must get back its own ReplicaSet and Pods,
// not fresh ones its controllers make before the Restore has written them (cascade.dev/restoring holds them back).

const NS = 'shop';
const APPS = `/apis/apps/v1/namespaces/${NS}`;
const PODS = `/api/v1/namespaces/${NS}/pods`;

let ts: TestServer;

interface Obj {
  kind: string;
  metadata: { name: string; uid: string; annotations?: Record<string, string>; ownerReferences?: { uid: string }[] };
  status?: Record<string, unknown>;
}

const list = async (path: string): Promise<Obj[]> => {
  const res = await ts.request('GET', path);
  assert.equal(res.status, 200, res.text);
  return (res.json as { items: Obj[] }).items;
};
const names = (objs: readonly Obj[]): string[] => objs.map((o) => o.metadata.name).sort();

before(async () => {
  ts = await startTestServer({ archive: { retentionMs: 3_600_000, maxBytes: 64 * 1024 * 1024 } });
  await ts.kubectlOk(['create', 'namespace', NS]);
});

after(async () => {
  await ts?.stop();
});

describe('restoring a Deployment while its controllers run (issue 28)', () => {
  it('brings back the same ReplicaSet and Pods, adopted by the restored owners, and nothing more', async () => {
    await ts.kubectlOk(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3', '-n', NS]);
    const pods = await waitFor(
      async () => {
        const found = await list(PODS);
        return found.length === 3 ? found : undefined;
      },
      { timeoutMs: 10_000, what: 'the Deployment to make 3 pods' },
    );
    const [rs] = await list(`${APPS}/replicasets`);
    assert.ok(rs !== undefined);

    await ts.kubectlOk(['delete', 'deployment', 'web', '-n', NS]);
    await waitFor(async () => ((await list(PODS)).length === 0 && (await list(`${APPS}/replicasets`)).length === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the cascade to remove the ReplicaSet and pods',
    });

    const created = await ts.request('POST', '/apis/cascade.dev/v1alpha1/restores', {
      apiVersion: 'cascade.dev/v1alpha1',
      kind: 'Restore',
      metadata: { name: 'web' },
      spec: { target: { resource: 'deployments.apps', namespace: NS, name: 'web' }, withDependents: true },
    });
    assert.equal(created.status, 201, created.text);
    const status = await waitFor(
      async () => {
        const r = (await ts.request('GET', '/apis/cascade.dev/v1alpha1/restores/web')).json as {
          status?: { conditions?: { type: string; message: string }[]; restored?: unknown[]; notRestored?: unknown[] };
        };
        return r.status?.conditions?.length ? r.status : undefined;
      },
      { timeoutMs: 15_000, what: 'the Restore to finish' },
    );
    assert.equal(status.conditions?.[0]?.type, 'Complete', status.conditions?.[0]?.message);
    assert.equal(status.conditions?.[0]?.message, 'restored 5 objects');
    assert.deepEqual(status.notRestored ?? [], []);

    // Handed back to their controllers: the marker is gone from both owners.
    const deployment = (await ts.request('GET', `${APPS}/deployments/web`)).json as Obj;
    const replicaSets = await list(`${APPS}/replicasets`);
    assert.deepEqual(names(replicaSets), [rs.metadata.name]);
    const [newRs] = replicaSets as [Obj];
    assert.equal(deployment.metadata.annotations?.['cascade.dev/restoring'], undefined);
    assert.equal(newRs.metadata.annotations?.['cascade.dev/restoring'], undefined);
    assert.deepEqual(
      newRs.metadata.ownerReferences?.map((r) => r.uid),
      [deployment.metadata.uid],
    );

    // Once the Deployment controller has looked at the restored Deployment, the pods are still the archived ones.
    await waitFor(
      async () => {
        const d = (await ts.request('GET', `${APPS}/deployments/web`)).json as Obj & { metadata: { generation?: number } };
        return d.status?.observedGeneration === d.metadata.generation && d.status?.replicas === 3 ? true : undefined;
      },
      { timeoutMs: 10_000, what: 'the Deployment controller to observe the restored Deployment' },
    );
    const restoredPods = await list(PODS);
    assert.deepEqual(names(restoredPods), names(pods));
    for (const pod of restoredPods)
      assert.deepEqual(
        pod.metadata.ownerReferences?.map((r) => r.uid),
        [newRs.metadata.uid],
      );
    assert.deepEqual(names(await list(`${APPS}/replicasets`)), [rs.metadata.name]);
  });
});
