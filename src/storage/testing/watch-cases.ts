import assert from 'node:assert/strict';
import type { KeyValue, WatchEvent } from '../backend.js';
import type { ConformanceGroup } from './conformance-case.js';
import { EventReader } from './event-reader.js';
import { bytes, keysOf, summaries, summary, text } from './case-helpers.js';

const BACKLOG = 200;

function shape(event: WatchEvent): { type: string; key: string; revision: number; value: string | undefined } {
  return { type: event.type, key: event.kv.key, revision: event.revision, value: text(event.kv) };
}

export const watchCases: ConformanceGroup = {
  name: 'watch',
  cases: [
    {
      name: 'watch replays the events after a revision in order, with prevKv on updates and deletes',
      async run(backend) {
        const a1 = await backend.create('/w/a', bytes('a1')); // 2
        const a2 = await backend.update('/w/a', bytes('a2'), a1.modRevision); // 3
        const b1 = await backend.create('/w/b', bytes('b1')); // 4
        const deleted = await backend.delete('/w/a'); // 5
        await backend.create('/other/x', bytes('x')); // 6
        const a3 = await backend.create('/w/a', bytes('a3')); // 7

        const watcher = await backend.watch('/w/', a1.modRevision);
        const reader = new EventReader(watcher);
        const [update, create, deletion, recreate] = await reader.take(4);
        assert.ok(update && create && deletion && recreate);

        assert.deepEqual(shape(update), { type: 'put', key: '/w/a', revision: 3, value: 'a2' });
        assert.deepEqual(summary(update.kv), summary(a2));
        assert.deepEqual(summary(update.prevKv), summary(a1));

        assert.deepEqual(shape(create), { type: 'put', key: '/w/b', revision: 4, value: 'b1' });
        assert.deepEqual(summary(create.kv), summary(b1));
        assert.equal(create.prevKv, undefined, 'a create has no prevKv');

        assert.deepEqual(shape(deletion), { type: 'delete', key: '/w/a', revision: 5, value: 'a2' });
        assert.deepEqual(summary(deletion.kv), summary(deleted));
        assert.equal(deletion.kv.modRevision, 5, 'a delete carries the deletion revision');
        assert.equal(deletion.kv.createRevision, a1.createRevision);
        assert.deepEqual(summary(deletion.prevKv), summary(a2));

        assert.deepEqual(shape(recreate), { type: 'put', key: '/w/a', revision: 7, value: 'a3' });
        assert.deepEqual(summary(recreate.kv), summary(a3));
        assert.equal(recreate.prevKv, undefined, 'a create after a delete has no prevKv');

        const live = await backend.create('/w/c', bytes('c1'));
        const [next] = await reader.take(1);
        assert.ok(next);
        assert.deepEqual(shape(next), { type: 'put', key: '/w/c', revision: live.modRevision, value: 'c1' });
        watcher.stop();
      },
    },
    {
      name: 'watch from the current revision delivers only later writes',
      async run(backend) {
        await backend.create('/w/old', bytes('old'));
        const watcher = await backend.watch('/w/', await backend.currentRevision());
        const fresh = await backend.create('/w/new', bytes('new'));
        const [event] = await new EventReader(watcher).take(1);
        assert.ok(event);
        assert.deepEqual(shape(event), { type: 'put', key: '/w/new', revision: fresh.modRevision, value: 'new' });
        watcher.stop();
      },
    },
    {
      name: 'watch of a prefix ignores keys outside it',
      async run(backend) {
        const watcher = await backend.watch('/a/', await backend.currentRevision());
        await backend.create('/ab/x', bytes('no'));
        await backend.create('/a', bytes('no'));
        await backend.create('/b/a/x', bytes('no'));
        const inside = await backend.create('/a/x', bytes('yes'));
        const [event] = await new EventReader(watcher).take(1);
        assert.ok(event);
        assert.equal(event.kv.key, '/a/x');
        assert.equal(event.revision, inside.modRevision);
        watcher.stop();
      },
    },
    {
      name: 'list then watch from the list revision misses nothing under concurrent writes',
      async run(backend) {
        await backend.create('/lw/seed', bytes('seed'));
        const writer = (async () => {
          for (let i = 0; i < 60; i++) {
            const key = `/lw/k${i % 7}`;
            const { kv } = await backend.get(key);
            if (kv === undefined) await backend.create(key, bytes(`v${i}`));
            else if (i % 3 === 0) await backend.delete(key, kv.modRevision);
            else await backend.update(key, bytes(`v${i}`), kv.modRevision);
            await backend.create(`/lwx/${i}`, bytes('elsewhere'));
          }
        })();
        const listed = await backend.list('/lw/');
        const watcher = await backend.watch('/lw/', listed.revision);
        await writer;
        const sentinel = await backend.create('/lw/~end', bytes('end'));
        const events = await new EventReader(watcher).takeThrough(sentinel.modRevision);
        watcher.stop();

        const state = new Map<string, KeyValue>(listed.kvs.map((kv) => [kv.key, kv]));
        let lastRevision = listed.revision;
        for (const event of events) {
          assert.ok(event.revision > lastRevision, `event ${event.revision} arrived after ${lastRevision}`);
          lastRevision = event.revision;
          assert.ok(event.kv.key.startsWith('/lw/'));
          assert.equal(event.prevKv?.modRevision, state.get(event.kv.key)?.modRevision, 'prevKv is the state before');
          if (event.type === 'put') state.set(event.kv.key, event.kv);
          else state.delete(event.kv.key);
        }
        const final = await backend.list('/lw/');
        const rebuilt = [...state.values()].sort((x, y) => (x.key < y.key ? -1 : 1));
        assert.deepEqual(summaries(rebuilt), summaries(final.kvs));
        assert.deepEqual(keysOf(rebuilt), keysOf(final.kvs));
      },
    },
    {
      name: 'a watcher buffers events while its consumer is not reading',
      async run(backend) {
        const start = await backend.currentRevision();
        const watcher = await backend.watch('/buf/', start);
        for (let i = 0; i < BACKLOG; i++) await backend.create(`/buf/${String(i).padStart(4, '0')}`, bytes(`${i}`));
        const events = await new EventReader(watcher).take(BACKLOG);
        assert.deepEqual(
          events.map((event) => event.revision),
          Array.from({ length: BACKLOG }, (_, i) => start + 1 + i),
        );
        watcher.stop();
      },
    },
    {
      name: 'stop ends the iteration, including a pending read',
      async run(backend) {
        const watcher = await backend.watch('/s/', await backend.currentRevision());
        const reader = new EventReader(watcher);
        const pending = reader.expectEnd();
        watcher.stop();
        await pending;
        await backend.create('/s/after', bytes('x'));
        await reader.expectEnd();

        const looped = await backend.watch('/s/', await backend.currentRevision());
        await backend.create('/s/one', bytes('1'));
        await backend.create('/s/two', bytes('2'));
        const seen: string[] = [];
        for await (const event of looped) {
          seen.push(event.kv.key);
          looped.stop();
        }
        assert.deepEqual(seen, ['/s/one'], 'stop discards undelivered events');
      },
    },
    {
      name: 'close ends every watcher',
      async run(backend) {
        const revision = await backend.currentRevision();
        const first = new EventReader(await backend.watch('/x/', revision));
        const second = new EventReader(await backend.watch('/y/', revision));
        const endings = [first.expectEnd(), second.expectEnd()];
        await backend.close();
        await Promise.all(endings);
      },
    },
  ],
};
