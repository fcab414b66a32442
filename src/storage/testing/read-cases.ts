import assert from 'node:assert/strict';
import type { Backend } from '../backend.js';
import { FutureRevisionError } from '../errors.js';
import type { ConformanceGroup } from './conformance-case.js';
import { bytes, keysOf, rejectionOf, summaries, summary, text } from './case-helpers.js';

async function createAll(backend: Backend, keys: readonly string[]): Promise<void> {
  for (const key of keys) await backend.create(key, bytes(`value of ${key}`));
}

/** The key just after `key` in byte order: where the next page starts. */
function after(key: string): string {
  return `${key}\u0000`;
}

export const readCases: ConformanceGroup = {
  name: 'reads',
  cases: [
    {
      name: 'get and list at the latest revision report the store revision',
      async run(backend) {
        await backend.create('/g/a', bytes('a'));
        await backend.create('/other/b', bytes('b'));
        const current = await backend.currentRevision();

        const hit = await backend.get('/g/a');
        assert.equal(hit.revision, current);
        assert.equal(text(hit.kv), 'a');
        const miss = await backend.get('/g/missing');
        assert.equal(miss.revision, current);
        assert.equal(miss.kv, undefined);

        const listed = await backend.list('/g/');
        assert.equal(listed.revision, current);
        const empty = await backend.list('/nothing/');
        assert.equal(empty.revision, current);
        assert.deepEqual(empty.kvs, []);
        assert.equal(empty.more, false);
        assert.equal(empty.remaining, 0);
      },
    },
    {
      name: 'list returns keys in ascending order',
      async run(backend) {
        const keys = ['/o/b', '/o/a/b', '/o/B', '/o/a', '/o/a0', '/o/c/d/e', '/o/a-', '/o/10', '/o/9'];
        await createAll(backend, keys);
        const listed = await backend.list('/o/');
        assert.deepEqual(keysOf(listed.kvs), [...keys].sort());
        assert.deepEqual(
          listed.kvs.map((kv) => text(kv)),
          [...keys].sort().map((key) => `value of ${key}`),
        );
      },
    },
    {
      name: 'list and count match the prefix exactly',
      async run(backend) {
        await createAll(backend, ['/a', '/a/x', '/a/y/z', '/ab/x', '/ab', '/b/a/x', '/a0']);
        assert.deepEqual(keysOf((await backend.list('/a/')).kvs), ['/a/x', '/a/y/z']);
        assert.equal(await backend.count('/a/'), 2);
        assert.deepEqual(keysOf((await backend.list('/ab/')).kvs), ['/ab/x']);
        assert.deepEqual(keysOf((await backend.list('/a')).kvs), ['/a', '/a/x', '/a/y/z', '/a0', '/ab', '/ab/x']);
        assert.equal((await backend.list('')).kvs.length, 7);
      },
    },
    {
      name: 'list pages with startKey and limit, reporting more and remaining',
      async run(backend) {
        const keys = ['/p/k0', '/p/k1', '/p/k2', '/p/k3', '/p/k4', '/p/k5', '/p/k6'];
        await createAll(backend, [...keys, '/p0', '/q/k']);

        const first = await backend.list('/p/', { limit: 3 });
        assert.deepEqual(keysOf(first.kvs), keys.slice(0, 3));
        assert.equal(first.more, true);
        assert.equal(first.remaining, 4);

        const second = await backend.list('/p/', { limit: 3, startKey: after('/p/k2') });
        assert.deepEqual(keysOf(second.kvs), keys.slice(3, 6));
        assert.equal(second.more, true);
        assert.equal(second.remaining, 1);

        const last = await backend.list('/p/', { limit: 3, startKey: after('/p/k5') });
        assert.deepEqual(keysOf(last.kvs), ['/p/k6']);
        assert.equal(last.more, false);
        assert.equal(last.remaining, 0);

        const inclusive = await backend.list('/p/', { startKey: '/p/k5' });
        assert.deepEqual(keysOf(inclusive.kvs), ['/p/k5', '/p/k6'], 'startKey is inclusive');

        const exact = await backend.list('/p/', { limit: 7 });
        assert.equal(exact.kvs.length, 7);
        assert.equal(exact.more, false);
        assert.equal(exact.remaining, 0);

        const unlimited = await backend.list('/p/', { limit: 0 });
        assert.deepEqual(keysOf(unlimited.kvs), keys);
        assert.equal(unlimited.more, false);
      },
    },
    {
      name: 'paging at the first page revision ignores later writes',
      async run(backend) {
        await createAll(backend, ['/p/k0', '/p/k1', '/p/k2', '/p/k3']);
        const first = await backend.list('/p/', { limit: 2 });

        await backend.create('/p/k2a', bytes('late'));
        await backend.delete('/p/k3');
        await backend.update('/p/k2', bytes('changed'), 4);

        const second = await backend.list('/p/', { limit: 2, startKey: after('/p/k1'), revision: first.revision });
        assert.equal(second.revision, first.revision, 'a read at a revision reports that revision');
        assert.deepEqual(keysOf(second.kvs), ['/p/k2', '/p/k3']);
        assert.equal(text(second.kvs[0]), 'value of /p/k2');
        assert.equal(second.more, false);
        assert.equal(second.remaining, 0);
      },
    },
    {
      name: 'count reports the live keys under a prefix',
      async run(backend) {
        assert.equal(await backend.count('/n/'), 0);
        await createAll(backend, ['/n/a', '/n/b', '/n/c', '/nn/a', '/m/a']);
        await backend.delete('/n/b');
        assert.equal(await backend.count('/n/'), 2);
        assert.equal(await backend.count('/n'), 3);
        assert.equal(await backend.count(''), 4);
      },
    },
    {
      name: 'get and list at an older revision return the state as of that revision',
      async run(backend) {
        const a1 = await backend.create('/v/a', bytes('a1')); // 2
        const a2 = await backend.update('/v/a', bytes('a2'), a1.modRevision); // 3
        const b1 = await backend.create('/v/b', bytes('b1')); // 4
        await backend.delete('/v/a'); // 5
        const a3 = await backend.create('/v/a', bytes('a3')); // 6
        await backend.create('/other/x', bytes('x')); // 7

        assert.equal(text((await backend.get('/v/a', { revision: 2 })).kv), 'a1');
        assert.deepEqual(summary((await backend.get('/v/a', { revision: 3 })).kv), summary(a2));
        assert.deepEqual(summary((await backend.get('/v/a', { revision: 4 })).kv), summary(a2));
        const gone = await backend.get('/v/a', { revision: 5 });
        assert.equal(gone.kv, undefined);
        assert.equal(gone.revision, 5);
        assert.deepEqual(summary((await backend.get('/v/a', { revision: 7 })).kv), summary(a3));
        assert.equal((await backend.get('/v/b', { revision: 3 })).kv, undefined);
        assert.equal((await backend.get('/v/a', { revision: 1 })).kv, undefined);

        const atFour = await backend.list('/v/', { revision: 4 });
        assert.equal(atFour.revision, 4);
        assert.deepEqual(summaries(atFour.kvs), summaries([a2, b1]));
        assert.deepEqual(keysOf((await backend.list('/v/', { revision: 5 })).kvs), ['/v/b']);
        assert.deepEqual(summaries((await backend.list('/v/', { revision: 6 })).kvs), summaries([a3, b1]));
        assert.deepEqual((await backend.list('/v/', { revision: 1 })).kvs, []);
      },
    },
    {
      name: 'reads at a future revision fail with FutureRevisionError',
      async run(backend) {
        await backend.create('/f/a', bytes('a'));
        const current = await backend.currentRevision();
        const onGet = await rejectionOf(backend.get('/f/a', { revision: current + 1 }), FutureRevisionError);
        assert.equal(onGet.requestedRevision, current + 1);
        assert.equal(onGet.currentRevision, current);
        await rejectionOf(backend.list('/f/', { revision: current + 5 }), FutureRevisionError);
        assert.equal(text((await backend.get('/f/a', { revision: current })).kv), 'a');
      },
    },
  ],
};
