import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceInfo } from '../../api/resource-info.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { Archive } from './archive.js';
import { entryParts } from './entry.js';
import { ArchivePruner } from './pruner.js';
import { decodeObject } from '../codec.js';
import { resourcePrefix } from '../keys.js';
import { ARCHIVED_OBJECTS, CLUSTER_ARCHIVED_OBJECTS } from './resources.js';

const CONFIGMAPS = { plural: 'configmaps', kind: 'ConfigMap', group: '', version: 'v1', namespaced: true } as ResourceInfo;
const NAMESPACES = { plural: 'namespaces', kind: 'Namespace', group: '', version: 'v1', namespaced: false } as ResourceInfo;
const EVENTS = { plural: 'events', kind: 'Event', group: '', version: 'v1', namespaced: true } as ResourceInfo;

describe('the archive and its pruning (issue 28)', () => {
  it('keeps namespaced and cluster-scoped originals apart, named after their uid, and never events', () => {
    const archive = new Archive(() => new Date('2026-01-01T00:00:00.250Z'));
    const cm = archive.recordFor(
      CONFIGMAPS,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', uid: 'u1' } },
      undefined,
      undefined,
      'Delete',
      {
        name: 'alice',
        groups: ['devs'],
      },
    );
    assert.equal(cm?.key, `${resourcePrefix(ARCHIVED_OBJECTS)}ns/u1`);
    const ns = archive.recordFor(
      NAMESPACES,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', uid: 'u2' } },
      undefined,
      undefined,
      'Finalized',
      undefined,
    );
    assert.equal(ns?.key, `${resourcePrefix(CLUSTER_ARCHIVED_OBJECTS)}u2`);
    assert.equal(
      archive.recordFor(EVENTS, { metadata: { name: 'e', namespace: 'ns', uid: 'u3' } }, undefined, undefined, 'Delete', undefined),
      undefined,
    );
    const entry = decodeObject({ key: cm?.key ?? '', value: cm?.value ?? new Uint8Array(), createRevision: 5, modRevision: 5 });
    assert.deepEqual(entryParts(entry).deletion, {
      time: '2026-01-01T00:00:00.250Z',
      reason: 'Delete',
      user: { username: 'alice', groups: ['devs'] },
    });
    assert.equal(entry.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
    assert.deepEqual(entryParts(entry).object, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'ns', uid: 'u1' },
    });

    // The bytes storage held are archived as they are, not encoded again.
    const stored = new TextEncoder().encode('{"kind":"ConfigMap","data":{"k":"é"}}');
    const spliced = archive.recordFor(
      CONFIGMAPS,
      { metadata: { name: 'b', namespace: 'ns', uid: 'u4' } },
      stored,
      undefined,
      'Delete',
      undefined,
    );
    const decoded = decodeObject({ key: '', value: spliced?.value ?? new Uint8Array(), createRevision: 6, modRevision: 6 });
    assert.deepEqual(entryParts(decoded).object, { kind: 'ConfigMap', data: { k: 'é' } });
  });

  it('prunes entries past the retention, oldest first, and nothing else', async () => {
    const backend = createMemoryBackend();
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = (): Date => new Date(now);
    const archive = new Archive(clock);
    for (let i = 0; i < 4; i++) {
      const key = `/registry/configmaps/ns/c${i}`;
      const kv = await backend.create(key, new TextEncoder().encode('{"metadata":{}}'));
      const record = archive.recordFor(
        CONFIGMAPS,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}`, namespace: 'ns', uid: `u${i}` } },
        undefined,
        undefined,
        'Delete',
        undefined,
      );
      assert.ok(record !== undefined);
      await backend.deleteAndPut(key, kv.modRevision, record);
      now += 60_000;
    }
    const pruner = new ArchivePruner(backend, { retentionMs: 150_000, maxBytes: 1e9 }, clock, 60_000, () => {});
    assert.equal(await pruner.pruneOnce(), 2);
    const left = (await backend.list(resourcePrefix(ARCHIVED_OBJECTS))).kvs.map((kv) => kv.key.split('/').pop());
    assert.deepEqual(left, ['u2', 'u3']);
    assert.equal(await pruner.pruneOnce(), 0);
  });
});
