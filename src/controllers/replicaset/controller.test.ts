import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { createTestClient, recordingWrites } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ApiClient } from '../../client/interface.js';
import { ReplicaSetController, slowStartBatch } from './controller.js';
import { REPLICA_SET, REPLICATION_CONTROLLER } from './kinds.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

function replicaSet(replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'ns' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template },
  };
}

async function setup(): Promise<{ base: ApiClient; writes: string[]; controller: ReplicaSetController }> {
  const base = createTestClient();
  await base.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const { client, writes } = recordingWrites(base);
  const controller = new ReplicaSetController({ client, kind: REPLICA_SET });
  await controller.start();
  return { base, writes, controller };
}

const podsOf = async (client: ApiClient): Promise<KubeObject[]> =>
  (await client.list(PODS, 'ns')).items.filter((p) => p.metadata.deletionTimestamp === undefined);

test('slowStartBatch runs batches of 1, 2, 4, … and stops after the first failing batch (slowStartBatch)', async () => {
  let calls = 0;
  const all = await slowStartBatch(10, async () => {
    calls++;
  });
  assert.deepEqual([all.successes, all.error, calls], [10, undefined, 10]);
  calls = 0;
  const failing = await slowStartBatch(10, async () => {
    calls++;
    if (calls === 3) throw new Error('quota');
  });
  // Batch 1 succeeds, batch 2 (calls 2 and 3) has a failure: batch 4 never starts.
  assert.deepEqual([failing.successes, String(failing.error), calls], [2, 'Error: quota', 3]);
});

test('a ReplicaSet gets its pods from the template, owned by a blocking controller reference, and status (syncReplicaSet)', async () => {
  const { base, writes, controller } = await setup();
  try {
    const rs = await base.create(REPLICA_SET.resource, 'ns', replicaSet(3));
    await until(async () => (await podsOf(base)).length === 3, '3 pods');
    const pods = await podsOf(base);
    for (const pod of pods) {
      assert.match(pod.metadata.name ?? '', /^web-[a-z0-9]{5}$/);
      assert.deepEqual(pod.metadata.labels, { app: 'web' });
      assert.deepEqual(pod.metadata.ownerReferences, [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    await until(async () => {
      const status = (await base.get(REPLICA_SET.resource, 'ns', 'web')).status as Record<string, unknown>;
      return status.replicas === 3 && status.fullyLabeledReplicas === 3 && status.observedGeneration === 1;
    }, 'status');
    await controller.idle();
    // Expectations kept the controller from creating more than 3 even though it synced on every pod event.
    assert.equal(writes.filter((w) => w.startsWith('create pods')).length, 3);
  } finally {
    await controller.stop();
  }
});

test('matching orphans are adopted, pods whose labels stop matching are released, scale down drops pending pods first', async () => {
  const { base, controller } = await setup();
  try {
    await base.create(PODS, 'ns', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'orphan', labels: { app: 'web' } },
      spec: template.spec,
    });
    const rs = await base.create(REPLICA_SET.resource, 'ns', replicaSet(2));
    await until(async () => (await podsOf(base)).length === 2, '2 pods');
    const orphan = await base.get(PODS, 'ns', 'orphan');
    assert.equal(orphan.metadata.ownerReferences?.[0]?.uid, rs.metadata.uid);

    // Relabelled: released (its controller reference removed) and replaced.
    await base.patch(PODS, 'ns', 'orphan', 'merge', { metadata: { labels: { app: 'other' } } });
    await until(async () => (await base.get(PODS, 'ns', 'orphan')).metadata.ownerReferences === undefined, 'release');
    await until(async () => (await podsOf(base)).filter((p) => p.metadata.labels?.app === 'web').length === 2, 'replacement');

    // One pod Running and Ready: scaling to 1 keeps it (Pending before Running, not ready before ready).
    const [keep] = (await podsOf(base)).filter((p) => p.metadata.labels?.app === 'web');
    assert.ok(keep);
    await base.update(PODS, 'ns', { ...keep, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, 'status');
    await base.patch(REPLICA_SET.resource, 'ns', 'web', 'merge', { spec: { replicas: 1 } });
    await until(async () => (await podsOf(base)).filter((p) => p.metadata.labels?.app === 'web').length === 1, 'scale down');
    const [left] = (await podsOf(base)).filter((p) => p.metadata.labels?.app === 'web');
    assert.equal(left?.metadata.name, keep.metadata.name);
    await until(async () => {
      const status = (await base.get(REPLICA_SET.resource, 'ns', 'web')).status as Record<string, unknown>;
      return status.replicas === 1 && status.readyReplicas === 1 && status.availableReplicas === 1 && status.observedGeneration === 2;
    }, 'status after scale down');
  } finally {
    await controller.stop();
  }
});

test('a failed pod creation sets ReplicaFailure with reason FailedCreate and the error text (calculateStatus)', async () => {
  const base = createTestClient();
  await base.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const quota = 'pods "web-x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0';
  const refusing: ApiClient = {
    ...base,
    create: (ref, ns, obj) =>
      ref.resource === 'pods' ? Promise.reject(new StatusError(403, 'Forbidden', quota)) : base.create(ref, ns, obj),
  };
  const controller = new ReplicaSetController({ client: refusing, kind: REPLICA_SET });
  await controller.start();
  try {
    await base.create(REPLICA_SET.resource, 'ns', replicaSet(1));
    await until(
      async () => Array.isArray(((await base.get(REPLICA_SET.resource, 'ns', 'web')).status as Record<string, unknown>).conditions),
      'condition',
    );
    const status = (await base.get(REPLICA_SET.resource, 'ns', 'web')).status as {
      replicas: number;
      conditions: Record<string, unknown>[];
    };
    assert.equal(status.replicas, 0);
    const [condition] = status.conditions;
    assert.deepEqual(
      [condition?.type, condition?.status, condition?.reason, condition?.message],
      ['ReplicaFailure', 'True', 'FailedCreate', quota],
    );
  } finally {
    await controller.stop();
  }
});

test('a ReplicationController runs through the same code with a v1 controller reference', async () => {
  const base = createTestClient();
  await base.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const controller = new ReplicaSetController({ client: base, kind: REPLICATION_CONTROLLER });
  await controller.start();
  try {
    await base.create(REPLICATION_CONTROLLER.resource, 'ns', {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: { replicas: 2, selector: { app: 'web' }, template },
    });
    await until(async () => (await podsOf(base)).length === 2, '2 pods');
    const [pod] = await podsOf(base);
    assert.equal(pod?.metadata.ownerReferences?.[0]?.kind, 'ReplicationController');
    assert.equal(pod?.metadata.ownerReferences?.[0]?.apiVersion, 'v1');
  } finally {
    await controller.stop();
  }
});

test('1,000 pods for one ReplicaSet are created in-process in well under a second each way (performance)', async () => {
  const { base, controller } = await setup();
  try {
    const started = Date.now();
    await base.create(REPLICA_SET.resource, 'ns', replicaSet(1000));
    await until(async () => (await base.list(PODS, 'ns')).items.length === 1000, '1000 pods', 20000);
    const elapsed = Date.now() - started;
    console.log(`1000 pods created in ${elapsed} ms`);
  } finally {
    await controller.stop();
  }
});
