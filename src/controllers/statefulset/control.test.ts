import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { newRevision, templatePatch } from '../history/controller-history.js';
import { retentionOwnerRefs, wantedOwners } from './claim-retention.js';
import { type StatefulPodControl, updateStatefulSet } from './control.js';
import { completeRollingUpdate } from './status.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

function statefulSet(spec: Record<string, unknown> = {}, image = 'nginx'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'set-uid', generation: 1 },
    spec: {
      replicas: 3,
      serviceName: 'nginx',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...spec,
    },
  };
}

const revisionOf = (set: KubeObject): KubeObject => newRevision({ owner: set, data: templatePatch(set), revision: 1, labels: {} }, 0);

/** A fake pod control recording what the sync asked for, in order. */
function recorder(): { control: StatefulPodControl; calls: string[]; created: KubeObject[] } {
  const calls: string[] = [];
  const created: KubeObject[] = [];
  const control: StatefulPodControl = {
    createPod: async (_set, pod) => {
      calls.push(`create ${pod.metadata.name}`);
      created.push(pod);
    },
    createMissingClaims: async () => {},
    claimIsStale: () => false,
    deletePod: async (_set, pod) => {
      calls.push(`delete ${pod.metadata.name}`);
    },
    reconcilePod: async () => {},
    reconcileClaims: async () => {},
  };
  return { control, calls, created };
}

function pod(ordinal: number, revision: string, state: 'pending' | 'ready' = 'ready'): KubeObject {
  return {
    metadata: {
      name: `web-${ordinal}`,
      namespace: 'ns',
      uid: `pod-${ordinal}`,
      labels: { app: 'web', 'controller-revision-hash': revision },
    },
    spec: {},
    status:
      state === 'pending'
        ? { phase: 'Pending' }
        : { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}

test('R12.78, R12.79, R12.81: OrderedReady creates web-0 with its identity and claim volume, then waits for it', async () => {
  const set = statefulSet();
  const rev = revisionOf(set);
  const revisions = { current: rev, update: rev, collisionCount: 0 };
  const first = recorder();
  await updateStatefulSet(set, revisions, [], first.control, NOW);
  assert.deepEqual(first.calls, ['create web-0']);
  const web0 = first.created[0] as KubeObject;
  assert.deepEqual(web0.metadata.labels, {
    app: 'web',
    'statefulset.kubernetes.io/pod-name': 'web-0',
    'apps.kubernetes.io/pod-index': '0',
    'controller-revision-hash': rev.metadata.name,
  });
  assert.equal(web0.metadata.generateName, 'web-');
  assert.deepEqual([(web0.spec as { hostname: string }).hostname, (web0.spec as { subdomain: string }).subdomain], ['web-0', 'nginx']);
  assert.deepEqual((web0.spec as { volumes: unknown }).volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);

  const waiting = recorder();
  await updateStatefulSet(set, revisions, [pod(0, rev.metadata.name ?? '', 'pending')], waiting.control, NOW);
  assert.deepEqual(waiting.calls, [], 'web-1 waits for web-0 to be Running and Ready');

  const next = recorder();
  const status = await updateStatefulSet(set, revisions, [pod(0, rev.metadata.name ?? '')], next.control, NOW);
  assert.deepEqual(next.calls, ['create web-1']);
  assert.deepEqual([status.replicas, status.readyReplicas, status.currentReplicas, status.updatedReplicas], [2, 1, 2, 2]);
});

test('R12.82: Parallel creates every missing pod at once; spec.ordinals.start shifts the names', async () => {
  const set = statefulSet({ podManagementPolicy: 'Parallel', ordinals: { start: 5 } });
  const rev = revisionOf(set);
  const r = recorder();
  await updateStatefulSet(set, { current: rev, update: rev, collisionCount: 0 }, [], r.control, NOW);
  assert.deepEqual(r.calls.sort(), ['create web-5', 'create web-6', 'create web-7']);
});

test('R12.84: scale-down deletes the highest ordinal first, one at a time under OrderedReady', async () => {
  const set = statefulSet({ replicas: 1 });
  const rev = revisionOf(set);
  const name = rev.metadata.name ?? '';
  const r = recorder();
  await updateStatefulSet(
    set,
    { current: rev, update: rev, collisionCount: 0 },
    [pod(0, name), pod(1, name), pod(2, name)],
    r.control,
    NOW,
  );
  assert.deepEqual(r.calls, ['delete web-2']);
  const terminating = { ...pod(2, name), metadata: { ...pod(2, name).metadata, deletionTimestamp: '2026-01-01T00:09:00Z' } };
  const waiting = recorder();
  await updateStatefulSet(
    set,
    { current: rev, update: rev, collisionCount: 0 },
    [pod(0, name), pod(1, name), terminating],
    waiting.control,
    NOW,
  );
  assert.deepEqual(waiting.calls, [], 'web-1 goes only once web-2 is gone');
});

test('R12.85, R12.87: a rolling update replaces the highest ordinal at or above the partition, one per sync', async () => {
  const old = statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } });
  const updated = statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, 'nginx:2');
  const current = revisionOf(old);
  const update = { ...revisionOf(updated), revision: 2 };
  const revisions = { current, update, collisionCount: 0 };
  const cur = current.metadata.name ?? '';
  const upd = update.metadata.name ?? '';
  const r = recorder();
  await updateStatefulSet(updated, revisions, [pod(0, cur), pod(1, cur), pod(2, cur)], r.control, NOW);
  assert.deepEqual(r.calls, ['delete web-2']);
  const recreate = recorder();
  await updateStatefulSet(updated, revisions, [pod(0, cur), pod(1, cur)], recreate.control, NOW);
  assert.deepEqual(recreate.calls, ['create web-2']);
  assert.equal(recreate.created[0]?.metadata.labels?.['controller-revision-hash'], upd, 'above the partition: update revision');
  const next = recorder();
  await updateStatefulSet(updated, revisions, [pod(0, cur), pod(1, cur), pod(2, upd)], next.control, NOW);
  assert.deepEqual(next.calls, ['delete web-1']);
  const done = recorder();
  const status = await updateStatefulSet(updated, revisions, [pod(0, cur), pod(1, upd), pod(2, upd)], done.control, NOW);
  assert.deepEqual(done.calls, [], 'web-0 is below the partition');
  assert.deepEqual([status.currentReplicas, status.updatedReplicas, status.currentRevision, status.updateRevision], [1, 2, cur, upd]);
  completeRollingUpdate(updated, status);
  assert.equal(status.currentRevision, cur, 'not complete while web-0 is old');
});

test('R12.86: OnDelete never deletes for an update; missing pods come at the update revision', async () => {
  const set = statefulSet({ updateStrategy: { type: 'OnDelete' } }, 'nginx:2');
  const current = revisionOf(statefulSet({}, 'nginx'));
  const update = revisionOf(set);
  const r = recorder();
  await updateStatefulSet(
    set,
    { current, update, collisionCount: 0 },
    [pod(0, current.metadata.name ?? ''), pod(1, current.metadata.name ?? '')],
    r.control,
    NOW,
  );
  assert.deepEqual(r.calls, ['create web-2']);
  assert.equal(r.created[0]?.metadata.labels?.['controller-revision-hash'], update.metadata.name);
});

test('R12.83: a failed pod is deleted and recreated later under the same name', async () => {
  const set = statefulSet({ replicas: 1 });
  const rev = revisionOf(set);
  const failed = { ...pod(0, rev.metadata.name ?? ''), status: { phase: 'Failed' } };
  const r = recorder();
  await updateStatefulSet(set, { current: rev, update: rev, collisionCount: 0 }, [failed], r.control, NOW);
  assert.deepEqual(r.calls, ['delete web-0']);
});

test('R12.88: the retention policy decides who owns a claim', () => {
  const cases: [Record<string, string>, boolean, { set: boolean; pod: boolean }][] = [
    [{ whenDeleted: 'Retain', whenScaled: 'Retain' }, false, { set: false, pod: false }],
    [{ whenDeleted: 'Delete', whenScaled: 'Retain' }, true, { set: true, pod: false }],
    [{ whenDeleted: 'Retain', whenScaled: 'Delete' }, false, { set: false, pod: false }],
    [{ whenDeleted: 'Retain', whenScaled: 'Delete' }, true, { set: false, pod: true }],
    [{ whenDeleted: 'Delete', whenScaled: 'Delete' }, false, { set: true, pod: false }],
    [{ whenDeleted: 'Delete', whenScaled: 'Delete' }, true, { set: false, pod: true }],
  ];
  for (const [policy, condemned, wanted] of cases) {
    const set = statefulSet({ replicas: 1, persistentVolumeClaimRetentionPolicy: policy });
    assert.deepEqual(wantedOwners(set, pod(condemned ? 2 : 0, 'r')), wanted, `${JSON.stringify(policy)} condemned=${condemned}`);
  }
  const set = statefulSet({ replicas: 1, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } });
  const claim: KubeObject = { metadata: { name: 'data-web-2' } };
  assert.deepEqual(retentionOwnerRefs(set, pod(2, 'r'), claim), [
    { apiVersion: 'v1', kind: 'Pod', name: 'web-2', uid: 'pod-2', controller: true, blockOwnerDeletion: true },
  ]);
  const stale = { metadata: { name: 'data-web-2', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-2', uid: 'earlier' }] } };
  assert.equal(retentionOwnerRefs(set, pod(2, 'r'), stale), undefined, 'a claim of an earlier web-2 is left alone');
  assert.equal(retentionOwnerRefs(set, pod(0, 'r'), { metadata: { name: 'data-web-0' } }), undefined, 'in range: nothing to do');
});
