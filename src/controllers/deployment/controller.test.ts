import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createTestClient } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ApiClient } from '../../client/interface.js';
import { ReplicaSetController } from '../replicaset/controller.js';
import { REPLICA_SET } from '../replicaset/kinds.js';
import { DEPLOYMENTS, REPLICA_SETS } from './context.js';
import { DeploymentController } from './controller.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function deployment(replicas: number, image: string, strategy?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
      ...(strategy === undefined ? {} : { strategy }),
    },
  };
}

interface Cluster {
  base: ApiClient;
  stop(): Promise<void>;
}

async function cluster(): Promise<Cluster> {
  const base = createTestClient();
  await base.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const rs = new ReplicaSetController({ client: base, kind: REPLICA_SET });
  const d = new DeploymentController({ client: base });
  await Promise.all([rs.start(), d.start()]);
  return { base, stop: async () => void (await Promise.all([rs.stop(), d.stop()])) };
}

const replicaSets = async (c: Cluster): Promise<KubeObject[]> => (await c.base.list(REPLICA_SETS, 'ns')).items;
const livePods = async (c: Cluster): Promise<KubeObject[]> =>
  (await c.base.list(PODS, 'ns')).items.filter((p) => p.metadata.deletionTimestamp === undefined);
const get = async (c: Cluster): Promise<KubeObject> => c.base.get(DEPLOYMENTS, 'ns', 'web');
const status = async (c: Cluster): Promise<Record<string, unknown>> => ((await get(c)).status ?? {}) as Record<string, unknown>;

/** Marks every live pod Ready through /status, as a kubelet would (Cascade has none yet). */
async function markReady(c: Cluster): Promise<void> {
  for (const pod of await livePods(c)) {
    const conditions = ((pod.status as Record<string, unknown> | undefined)?.conditions ?? []) as Record<string, unknown>[];
    if (conditions.some((x) => x.type === 'Ready' && x.status === 'True')) continue;
    await c.base
      .update(
        PODS,
        'ns',
        {
          ...pod,
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString() }] },
        },
        'status',
      )
      .catch(() => undefined);
  }
}

test('a Deployment gets one ReplicaSet <name>-<pod-template-hash> with revision annotations, and its pods (getNewReplicaSet)', async () => {
  const c = await cluster();
  try {
    const d = await c.base.create(DEPLOYMENTS, 'ns', deployment(3, 'nginx'));
    await until(async () => (await livePods(c)).length === 3, '3 pods');
    const [rs] = await replicaSets(c);
    assert.ok(rs);
    const hash = rs.metadata.labels?.['pod-template-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(rs.metadata.name, `web-${hash}`);
    assert.deepEqual(rs.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    assert.deepEqual((rs.spec as { selector: unknown }).selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '3');
    // maxSurge 25% of 3 rounds up to 1.
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/max-replicas'], '4');
    await until(
      async () => (await get(c)).metadata.annotations?.['deployment.kubernetes.io/revision'] === '1',
      'revision on the Deployment',
    );
    for (const pod of await livePods(c)) assert.equal(pod.metadata.labels?.['pod-template-hash'], hash);

    // Pods never become ready without a kubelet: Available stays False, Progressing True (calculateStatus).
    await until(async () => (await status(c)).replicas === 3, 'status.replicas');
    const s = await status(c);
    const conditions = s.conditions as Record<string, unknown>[];
    const byType = (type: string): unknown[] => {
      const x = conditions.find((cond) => cond.type === type);
      return [x?.status, x?.reason, x?.message];
    };
    assert.deepEqual(byType('Available'), ['False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.']);
    // NewReplicaSetCreated first, then ReplicaSetUpdated once the ReplicaSet reports its pods (DeploymentProgressing).
    assert.deepEqual(byType('Progressing'), ['True', 'ReplicaSetUpdated', `ReplicaSet "web-${hash}" is progressing.`]);
    assert.equal(s.unavailableReplicas, 3);

    await markReady(c);
    await until(async () => {
      const cs = ((await status(c)).conditions ?? []) as Record<string, unknown>[];
      return cs.some((x) => x.type === 'Available' && x.status === 'True') && cs.some((x) => x.reason === 'NewReplicaSetAvailable');
    }, 'rollout complete');
    const done = await status(c);
    assert.deepEqual(
      [done.replicas, done.updatedReplicas, done.readyReplicas, done.availableReplicas, done.observedGeneration],
      [3, 3, 3, 3, 1],
    );
  } finally {
    await c.stop();
  }
});

test('a template change rolls out to a new ReplicaSet within maxSurge/maxUnavailable as pods become ready (rolloutRolling)', async () => {
  const c = await cluster();
  try {
    await c.base.create(DEPLOYMENTS, 'ns', deployment(2, 'nginx:1'));
    await until(async () => (await livePods(c)).length === 2, '2 pods');
    await markReady(c);
    await until(async () => (await status(c)).availableReplicas === 2, 'available');
    await c.base.patch(DEPLOYMENTS, 'ns', 'web', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } },
    });
    // Keep marking the new pods ready until the old ReplicaSet is at 0.
    await until(
      async () => {
        await markReady(c);
        const list = await replicaSets(c);
        const old = list.find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '1');
        const next = list.find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '2');
        return (
          list.length === 2 &&
          (old?.spec as { replicas?: number } | undefined)?.replicas === 0 &&
          (next?.spec as { replicas?: number } | undefined)?.replicas === 2
        );
      },
      'rollout to revision 2',
      10000,
    );
    await until(async () => (await get(c)).metadata.annotations?.['deployment.kubernetes.io/revision'] === '2', 'revision 2');
    await until(
      async () => {
        const s = await status(c);
        return s.updatedReplicas === 2 && s.replicas === 2 && s.availableReplicas === 2 && s.observedGeneration === 2;
      },
      'status after rollout',
      10000,
    );
  } finally {
    await c.stop();
  }
});

test('Recreate scales the old ReplicaSet to zero before the new one gets pods (rolloutRecreate)', async () => {
  const c = await cluster();
  try {
    await c.base.create(DEPLOYMENTS, 'ns', deployment(2, 'nginx:1', { type: 'Recreate' }));
    await until(async () => (await livePods(c)).length === 2, '2 pods');
    await c.base.patch(DEPLOYMENTS, 'ns', 'web', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } },
    });
    await until(async () => (await replicaSets(c)).length === 2, 'the new ReplicaSet');
    const pods = await livePods(c);
    const revisions = new Set(pods.map((p) => p.metadata.labels?.['pod-template-hash']));
    // Never pods of both templates alive at once.
    assert.ok(revisions.size <= 1);
    await until(async () => (await livePods(c)).length === 2 && (await status(c)).updatedReplicas === 2, 'new pods');
  } finally {
    await c.stop();
  }
});

test('scaling a paused Deployment resizes its ReplicaSet; an orphaned ReplicaSet is adopted by a Deployment with its selector', async () => {
  const c = await cluster();
  try {
    await c.base.create(DEPLOYMENTS, 'ns', deployment(2, 'nginx'));
    await until(async () => (await livePods(c)).length === 2, '2 pods');
    await c.base.patch(DEPLOYMENTS, 'ns', 'web', 'merge', { spec: { paused: true, replicas: 4 } });
    await until(async () => (await livePods(c)).length === 4, '4 pods');
    const paused = ((await status(c)).conditions as Record<string, unknown>[]).find((x) => x.type === 'Progressing');
    assert.deepEqual([paused?.status, paused?.reason, paused?.message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);

    // No garbage collector runs here: the ReplicaSet is orphaned by hand, as an orphaning delete would leave it.
    await c.base.delete(DEPLOYMENTS, 'ns', 'web');
    const [orphan] = await replicaSets(c);
    await c.base.patch(REPLICA_SETS, 'ns', orphan?.metadata.name ?? '', 'json', [{ op: 'remove', path: '/metadata/ownerReferences' }]);
    const fresh = await c.base.create(DEPLOYMENTS, 'ns', deployment(4, 'nginx'));
    await until(async () => (await replicaSets(c))[0]?.metadata.ownerReferences?.[0]?.uid === fresh.metadata.uid, 'adoption');
    assert.equal((await replicaSets(c)).length, 1);
  } finally {
    await c.stop();
  }
});
