import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeletionCause } from '../../api/deletion-cause.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import { decodeObject, encodeObject } from '../../registry/codec.js';
import { encodeArchiveEntry } from '../../registry/archive/entry.js';
import { dependentsOf, findTarget, ownersFirst, rollForward, waves } from './plan.js';

const info = (plural: string, kind: string, group: string, namespaced: boolean): ResourceInfo =>
  ({ plural, kind, group, version: 'v1', namespaced }) as ResourceInfo;
const DEPLOYMENTS = info('deployments', 'Deployment', 'apps', true);
const REPLICASETS = info('replicasets', 'ReplicaSet', 'apps', true);
const PODS = info('pods', 'Pod', '', true);
const NAMESPACES = info('namespaces', 'Namespace', '', false);
const CONFIGMAPS = info('configmaps', 'ConfigMap', '', true);

const at = (s: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const obj = (kind: string, apiVersion: string, name: string, uid: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'ns', uid, resourceVersion: '7', creationTimestamp: '2025-01-01T00:00:00Z', generation: 2, ...extra },
});
const owned = (owner: KubeObject) => ({
  apiVersion: owner.apiVersion ?? '',
  kind: owner.kind ?? '',
  name: owner.metadata.name ?? '',
  uid: owner.metadata.uid ?? '',
  controller: true,
});
const entry = (i: ResourceInfo, o: KubeObject, cause: DeletionCause | undefined, s: number): KubeObject =>
  decodeObject({
    key: '',
    value: encodeArchiveEntry(i, o, encodeObject(o), cause, 'Delete', { name: 'alice', groups: [] }, at(s)),
    createRevision: 2,
    modRevision: 2,
  });

// Issue 28's three-level tree: the user deletes the Deployment, the collector its ReplicaSet, then its Pods.
const deployment = obj('Deployment', 'apps/v1', 'web', 'd1', { deletionTimestamp: '2026-01-01T00:00:01Z' });
const rs = obj('ReplicaSet', 'apps/v1', 'web-1', 'r1');
rs.metadata.ownerReferences = [owned(deployment)];
const podA = obj('Pod', 'v1', 'web-1-a', 'p1');
podA.metadata.ownerReferences = [owned(rs)];
const podB = obj('Pod', 'v1', 'web-1-b', 'p2', { finalizers: ['foregroundDeletion', 'example.com/keep'] });
podB.metadata.ownerReferences = [owned(rs), { apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', uid: 'c1' }];
const earlier = obj('Deployment', 'apps/v1', 'web', 'd0');
const unrelated = obj('Pod', 'v1', 'other', 'p9');
unrelated.metadata.ownerReferences = [owned(rs)];
const ENTRIES = [
  entry(PODS, podB, { reason: 'Cascade', owners: podB.metadata.ownerReferences }, 3),
  entry(DEPLOYMENTS, earlier, undefined, 0),
  entry(DEPLOYMENTS, deployment, undefined, 1),
  entry(PODS, podA, { reason: 'Cascade', owners: podA.metadata.ownerReferences }, 3),
  entry(REPLICASETS, rs, { reason: 'Cascade', owners: rs.metadata.ownerReferences }, 2),
  // Deleted directly before the cascade: not part of it.
  entry(PODS, unrelated, undefined, 1),
];

describe('restore planning (issue 28)', () => {
  it('finds the last removal of a name, or the last at or before asOf, or by uid', () => {
    const target = { resource: 'deployments.apps', namespace: 'ns', name: 'web' };
    assert.equal(findTarget(ENTRIES, { target })?.original.uid, 'd1');
    assert.equal(findTarget(ENTRIES, { target: { ...target, asOf: '2026-01-01T00:00:00.500Z' } })?.original.uid, 'd0');
    assert.equal(findTarget(ENTRIES, { target: { resource: 'deployments.apps', namespace: 'ns', uid: 'd0' } })?.original.uid, 'd0');
    assert.equal(findTarget(ENTRIES, { target: { ...target, namespace: 'other' } }), undefined);
  });

  it("follows the collector's cascade transitively, leaving out what was deleted on its own", () => {
    const target = findTarget(ENTRIES, { target: { resource: 'deployments.apps', namespace: 'ns', name: 'web' } });
    assert.ok(target !== undefined);
    assert.deepEqual(
      dependentsOf(ENTRIES, target)
        .map((p) => p.original.uid)
        .sort(),
      ['p1', 'p2', 'r1'],
    );
  });

  it("takes a namespace's content removed while it terminated", () => {
    const ns: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team', uid: 'n1', deletionTimestamp: '2026-01-01T00:00:01Z' },
    };
    const inside = { ...obj('ConfigMap', 'v1', 'settings', 'c2'), metadata: { name: 'settings', namespace: 'team', uid: 'c2' } };
    const before = { ...obj('ConfigMap', 'v1', 'old', 'c3'), metadata: { name: 'old', namespace: 'team', uid: 'c3' } };
    const entries = [
      entry(NAMESPACES, ns, undefined, 4),
      entry(CONFIGMAPS, inside, { reason: 'NamespaceTerminating', namespace: 'team' }, 2),
      entry(CONFIGMAPS, before, undefined, 0),
    ];
    const target = findTarget(entries, { target: { resource: 'namespaces', name: 'team' } });
    assert.ok(target !== undefined);
    assert.deepEqual(
      dependentsOf(entries, target).map((p) => p.original.uid),
      ['c2'],
    );
  });

  it('puts owners before their dependents and namespaces first', () => {
    const target = findTarget(ENTRIES, { target: { resource: 'deployments.apps', namespace: 'ns', name: 'web' } });
    assert.ok(target !== undefined);
    const ordered = ownersFirst([...dependentsOf(ENTRIES, target), target]);
    assert.deepEqual(
      ordered.map((p) => p.original.uid),
      ['d1', 'r1', 'p1', 'p2'],
    );
  });

  it('rolls forward: system fields cleared, owners rewritten to new uids, gone owners dropped', () => {
    const body = rollForward(podB, new Map([['r1', 'r1-new']]), (ref) => ref.uid !== 'c1');
    assert.deepEqual(body.metadata, {
      name: 'web-1-b',
      namespace: 'ns',
      finalizers: ['example.com/keep'],
      ownerReferences: [{ ...owned(rs), uid: 'r1-new' }],
    });
    assert.equal(podB.metadata.uid, 'p2', 'the archived object is left as it was');
  });
});

describe('restore waves (issue 28)', () => {
  it('writes each object in the wave after its owners, its namespace and its CRD', () => {
    const target = findTarget(ENTRIES, { target: { resource: 'deployments.apps', namespace: 'ns', name: 'web' } });
    assert.ok(target !== undefined);
    const ordered = ownersFirst([...dependentsOf(ENTRIES, target), target]);
    assert.deepEqual(
      waves(ordered).map((wave) => wave.map((p) => p.original.uid)),
      [['d1'], ['r1'], ['p1', 'p2']],
    );
  });
});
