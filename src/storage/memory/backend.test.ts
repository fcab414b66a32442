import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactedError } from '../errors.js';
import { runBackendConformance } from '../testing/conformance.js';
import { bytes, keysOf, rejectionOf, text } from '../testing/case-helpers.js';
import { createMemoryBackend } from './backend.js';

runBackendConformance({ name: 'memory', newBackend: async () => createMemoryBackend() });

describe('memory backend', () => {
  it('compacts automatically so that only the last historyLimit revisions stay readable', async () => {
    const backend = createMemoryBackend({ historyLimit: 5 });
    await backend.create('/h/a', bytes('0')); // 2
    for (let i = 1; i <= 8; i++) await backend.update('/h/a', bytes(`${i}`), i + 1); // 3..10
    assert.equal(await backend.currentRevision(), 10);
    assert.equal(await backend.compactedRevision(), 6);

    await rejectionOf(backend.get('/h/a', { revision: 5 }), CompactedError);
    assert.equal(text((await backend.get('/h/a', { revision: 6 })).kv), '4');
    await rejectionOf(backend.watch('/h/', 4), CompactedError);
    const watcher = await backend.watch('/h/', 5);
    const first = await watcher[Symbol.asyncIterator]().next();
    assert.equal(first.done, false);
    assert.equal(first.value?.revision, 6);
    await backend.close();
  });

  it('keeps the default history of 102,400 revisions (kube-apiserver watch cache bound)', async () => {
    const backend = createMemoryBackend();
    await backend.create('/h/a', bytes('0'));
    for (let revision = 2; revision < 102_401; revision++) await backend.update('/h/a', bytes('x'), revision);
    assert.equal(await backend.currentRevision(), 102_401);
    assert.equal(await backend.compactedRevision(), 2);
    await backend.update('/h/a', bytes('x'), 102_401);
    assert.equal(await backend.compactedRevision(), 3);
    await backend.close();
  });

  it('compacts the revisions no longer current within the history window, at the next write', async () => {
    let now = 0;
    const backend = createMemoryBackend({ historyWindowMs: 1000, now: () => now });
    await backend.create('/w/a', bytes('0')); // 2, at 0 ms
    now = 400;
    await backend.update('/w/a', bytes('1'), 2); // 3
    now = 900;
    await backend.create('/w/b', bytes('b')); // 4
    assert.equal(await backend.compactedRevision(), 1, 'every revision was current within the last second');
    now = 1300;
    await backend.delete('/w/b'); // 5: revision 1 was replaced at 0 ms, revision 2 only at 400 ms
    assert.equal(await backend.compactedRevision(), 2);
    await rejectionOf(backend.get('/w/a', { revision: 1 }), CompactedError);
    assert.equal(text((await backend.get('/w/a', { revision: 2 })).kv), '0');
    now = 1500;
    await backend.create('/w/c', bytes('c')); // 6
    assert.equal(await backend.compactedRevision(), 3);
    await rejectionOf(backend.get('/w/a', { revision: 2 }), CompactedError);
    now = 5000;
    assert.equal(await backend.compactedRevision(), 3, 'history ages out only when a write happens');
    await backend.create('/w/d', bytes('d')); // 7: revisions up to 5 were replaced long ago, 6 only now
    assert.equal(await backend.compactedRevision(), 6);
    assert.deepEqual(keysOf((await backend.list('/w/', { revision: 6 })).kvs), ['/w/a', '/w/c']);
    await rejectionOf(backend.watch('/w/', 4), CompactedError);
    await backend.close();
  });

  it('prunes a key deleted, created again and deleted again as compaction passes each write', async () => {
    const backend = createMemoryBackend({ historyLimit: 2 });
    await backend.create('/r/k', bytes('1')); // 2
    await backend.delete('/r/k'); // 3
    await backend.create('/r/k', bytes('2')); // 4: the tombstone of 3 is still the newest version at or below 3
    await backend.create('/r/other', bytes('o')); // 5: compacted to 4, so the tombstone goes
    assert.equal(text((await backend.get('/r/k', { revision: 4 })).kv), '2');
    await backend.delete('/r/k'); // 6
    await backend.create('/r/more', bytes('m')); // 7
    await backend.create('/r/last', bytes('l')); // 8: compacted to 7, past the second delete
    assert.equal((await backend.get('/r/k', { revision: 7 })).kv, undefined);
    assert.deepEqual(keysOf((await backend.list('/r/')).kvs), ['/r/last', '/r/more', '/r/other']);
    const again = await backend.create('/r/k', bytes('3'));
    assert.equal(again.createRevision, 9);
    await backend.close();
  });

  it('sees a key deleted at the compact revision as absent there, and lets it be created again', async () => {
    const backend = createMemoryBackend({ historyLimit: 3 });
    await backend.create('/h/gone', bytes('x')); // 2
    await backend.delete('/h/gone'); // 3
    await backend.create('/h/kept', bytes('y')); // 4
    assert.equal(await backend.compactedRevision(), 2);
    assert.equal(text((await backend.get('/h/gone', { revision: 2 })).kv), 'x');

    await backend.create('/h/more', bytes('z')); // 5
    assert.equal(await backend.compactedRevision(), 3);
    await rejectionOf(backend.get('/h/gone', { revision: 2 }), CompactedError);
    assert.equal((await backend.get('/h/gone', { revision: 3 })).kv, undefined);
    assert.deepEqual(keysOf((await backend.list('/h/', { revision: 3 })).kvs), []);
    assert.deepEqual(keysOf((await backend.list('/h/')).kvs), ['/h/kept', '/h/more']);
    const again = await backend.create('/h/gone', bytes('again')); // 6
    assert.equal(again.createRevision, 6);
    assert.deepEqual(keysOf((await backend.list('/h/')).kvs), ['/h/gone', '/h/kept', '/h/more']);
    await backend.close();
  });

  it('rejects a historyLimit below one', () => {
    assert.throws(() => createMemoryBackend({ historyLimit: 0 }), RangeError);
  });

  it('hands out frozen key-values and events', async () => {
    const backend = createMemoryBackend();
    const kv = await backend.create('/f/a', bytes('a'));
    assert.ok(Object.isFrozen(kv));
    const watcher = await backend.watch('/f/', 1);
    const replayed = await watcher[Symbol.asyncIterator]().next();
    assert.ok(Object.isFrozen(replayed.value));
    await backend.close();
  });

  it('rejects every call after close', async () => {
    const backend = createMemoryBackend();
    await backend.close();
    await assert.rejects(backend.get('/a'), /closed/);
    await assert.rejects(backend.create('/a', bytes('a')), /closed/);
    await assert.rejects(backend.watch('/', 1), /closed/);
    await backend.close();
  });

  it('pages through a 10,000-key prefix among 20,000 keys', async () => {
    const backend = createMemoryBackend();
    for (let i = 0; i < 10_000; i++) {
      const name = String(i).padStart(5, '0');
      await backend.create(`/registry/pods/ns/${name}`, bytes(name));
      await backend.create(`/registry/configmaps/ns/${name}`, bytes(name));
    }
    const page = await backend.list('/registry/pods/', { limit: 500, startKey: '/registry/pods/ns/05000' });
    assert.equal(page.kvs.length, 500);
    assert.equal(page.kvs[0]?.key, '/registry/pods/ns/05000');
    assert.equal(page.kvs[499]?.key, '/registry/pods/ns/05499');
    assert.equal(page.remaining, 4_500);
    assert.equal(await backend.count('/registry/configmaps/'), 10_000);
    await backend.close();
  });
});
