import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createTestClient } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import {
  CONTROLLER_REVISIONS,
  createRevision,
  equalRevision,
  newRevision,
  nextRevision,
  revisionName,
  sortRevisions,
  templateOf,
  templatePatch,
  truncateHistory,
} from './controller-history.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

function owner(image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'uid-web' },
    spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } } },
  };
}

test('R12.73: the data replaces the whole template; the template comes back out of it', () => {
  const data = templatePatch(owner('nginx'));
  assert.deepEqual(data, {
    spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, $patch: 'replace' } },
  });
  assert.deepEqual(templateOf({ metadata: {}, data }), (owner('nginx').spec as { template: unknown }).template);
});

test('R12.74: name <owner>-<hash>, hash label, controller ref; the hash follows data and collision count', () => {
  const spec = { owner: owner('nginx'), data: templatePatch(owner('nginx')), revision: 1, labels: { app: 'web' } };
  const rev = newRevision(spec, 0);
  const hash = rev.metadata.labels?.['controller-revision-hash'] ?? '';
  assert.equal(rev.metadata.name, `web-${hash}`);
  assert.equal(rev.metadata.labels?.app, 'web');
  assert.deepEqual(rev.metadata.ownerReferences?.[0], {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    name: 'web',
    uid: 'uid-web',
    controller: true,
    blockOwnerDeletion: true,
  });
  assert.equal(newRevision(spec, 0).metadata.name, rev.metadata.name, 'deterministic');
  assert.notEqual(newRevision(spec, 1).metadata.name, rev.metadata.name);
  assert.notEqual(newRevision({ ...spec, data: templatePatch(owner('nginx:2')) }, 0).metadata.name, rev.metadata.name);
  assert.equal(revisionName('x'.repeat(300), 'h').length, 225);
  assert.equal(equalRevision(rev, newRevision({ ...spec, revision: 7 }, 3)), true);
});

test('revisions sort by number and the next one is max + 1', () => {
  const r = (name: string, revision: number): KubeObject => ({ metadata: { name }, revision });
  assert.deepEqual(
    sortRevisions([r('c', 3), r('a', 1), r('b', 2)]).map((x) => x.metadata.name),
    ['a', 'b', 'c'],
  );
  assert.equal(nextRevision([]), 1);
  assert.equal(nextRevision([r('a', 1), r('c', 5)]), 6);
});

test('R12.74: a name taken by other data raises the collision count; equal data is the same revision', async () => {
  const client = createTestClient();
  await client.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const spec = { owner: owner('nginx'), data: templatePatch(owner('nginx')), revision: 1, labels: { app: 'web' } };
  // Another template's revision squats the name this one hashes to at collision count 0.
  const squatter = newRevision(spec, 0);
  await client.create(CONTROLLER_REVISIONS, 'ns', {
    ...squatter,
    data: templatePatch(owner('other')),
    metadata: { ...squatter.metadata, ownerReferences: [] },
  });
  const first = await createRevision(client, spec, 0);
  assert.equal(first.collisionCount, 1);
  assert.equal(first.revision.metadata.name, newRevision(spec, 1).metadata.name);
  const again = await createRevision(client, spec, 1);
  assert.equal(again.revision.metadata.uid, first.revision.metadata.uid);
});

test('R12.76: history keeps at most the limit of unused revisions, deleting the oldest', async () => {
  const client = createTestClient();
  await client.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  const stored: KubeObject[] = [];
  for (let i = 1; i <= 5; i++) {
    const spec = { owner: owner(`nginx:${i}`), data: templatePatch(owner(`nginx:${i}`)), revision: i, labels: {} };
    stored.push((await createRevision(client, spec, 0)).revision);
  }
  const live = new Set([stored[0]?.metadata.name, stored[4]?.metadata.name]);
  await truncateHistory(client, stored, (r) => live.has(r.metadata.name), 1);
  const left = (await client.list(CONTROLLER_REVISIONS, 'ns')).items.map((r) => r.revision);
  assert.deepEqual(left.sort(), [1, 4, 5]);
});
