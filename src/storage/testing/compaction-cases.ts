import assert from 'node:assert/strict';
import { CompactedError, FutureRevisionError } from '../errors.js';
import type { ConformanceGroup } from './conformance-case.js';
import { EventReader } from './event-reader.js';
import { bytes, keysOf, rejectionOf, summary, text } from './case-helpers.js';

export const compactionCases: ConformanceGroup = {
  name: 'compaction',
  cases: [
    {
      name: 'compaction makes older reads and watches fail while newer ones work',
      async run(backend) {
        const a1 = await backend.create('/k/a', bytes('a1')); // 2
        const a2 = await backend.update('/k/a', bytes('a2'), a1.modRevision); // 3
        await backend.create('/k/b', bytes('b1')); // 4
        const a3 = await backend.update('/k/a', bytes('a3'), a2.modRevision); // 5

        await backend.compact(4);
        assert.equal(await backend.compactedRevision(), 4);

        const onGet = await rejectionOf(backend.get('/k/a', { revision: 3 }), CompactedError);
        assert.equal(onGet.requestedRevision, 3);
        assert.equal(onGet.compactedRevision, 4);
        await rejectionOf(backend.list('/k/', { revision: 2 }), CompactedError);
        await rejectionOf(backend.watch('/k/', 2), CompactedError);

        assert.equal(text((await backend.get('/k/a', { revision: 4 })).kv), 'a2');
        const atFour = await backend.list('/k/', { revision: 4 });
        assert.deepEqual(keysOf(atFour.kvs), ['/k/a', '/k/b']);
        assert.equal(text(atFour.kvs[0]), 'a2');
        assert.deepEqual(summary((await backend.get('/k/a')).kv), summary(a3));

        const watcher = await backend.watch('/k/', 3);
        const [created, updated] = await new EventReader(watcher).take(2);
        assert.ok(created && updated);
        assert.equal(created.revision, 4);
        assert.equal(updated.revision, 5);
        assert.deepEqual(summary(updated.prevKv), summary(a2), 'prevKv survives compaction of its revision');
        watcher.stop();
      },
    },
    {
      name: 'compaction keeps the state at the compact revision, including deletions',
      async run(backend) {
        await backend.create('/k/old', bytes('old')); // 2
        await backend.create('/k/gone', bytes('gone')); // 3
        await backend.delete('/k/gone'); // 4
        await backend.create('/k/late', bytes('late')); // 5
        await backend.compact(5);

        assert.deepEqual(keysOf((await backend.list('/k/', { revision: 5 })).kvs), ['/k/late', '/k/old']);
        assert.equal((await backend.get('/k/gone')).kv, undefined);
        assert.equal(await backend.count('/k/'), 2);
        const again = await backend.create('/k/gone', bytes('again'));
        assert.equal(again.createRevision, 6);
        assert.equal(text((await backend.get('/k/gone')).kv), 'again');
      },
    },
    {
      // etcd keeps a watch that is still replaying history apart from the live ones; compacting past it ends it
      // (kube-apiserver then sends 410 Expired). Backends that buffer a watch's events at its start keep
      // delivering them. Either way the watcher never skips an event nor ends as if it were done.
      name: 'a watch that compaction overtakes delivers every event in order or ends with CompactedError',
      async run(backend) {
        let last = await backend.create('/k/a', bytes('0')); // 2
        for (let i = 1; i < 20; i++) last = await backend.update('/k/a', bytes(String(i)), last.modRevision); // 3..21
        const watcher = await backend.watch('/k/', 1);
        await backend.compact(last.modRevision);

        const reader = new EventReader(watcher);
        let next = 2;
        try {
          while (next <= last.modRevision) {
            const [event] = await reader.take(1);
            assert.equal(event?.revision, next, 'events arrive in revision order without a gap');
            next += 1;
          }
        } catch (error) {
          assert.ok(error instanceof CompactedError, `expected the watch to end with CompactedError, got ${String(error)}`);
          assert.equal(error.compactedRevision, last.modRevision);
        } finally {
          watcher.stop();
        }
        await rejectionOf(backend.watch('/k/', 1), CompactedError);
        const resumed = await backend.watch('/k/', last.modRevision);
        const written = await backend.update('/k/a', bytes('after'), last.modRevision);
        const [event] = await new EventReader(resumed).take(1);
        assert.equal(event?.revision, written.modRevision, 'a watch from the compact revision works');
        resumed.stop();
      },
    },
    {
      name: 'compacting at a future revision fails',
      async run(backend) {
        await backend.create('/k/a', bytes('a'));
        await rejectionOf(backend.compact(3), FutureRevisionError);
        assert.equal(text((await backend.get('/k/a', { revision: 2 })).kv), 'a');
      },
    },
  ],
};
