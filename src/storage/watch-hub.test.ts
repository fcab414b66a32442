import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WatchEvent } from './backend.js';
import { EventReader } from './testing/event-reader.js';
import { bytes } from './testing/case-helpers.js';
import { WatchHub } from './watch-hub.js';

function put(key: string, revision: number): WatchEvent {
  return { type: 'put', kv: { key, value: bytes(key), createRevision: revision, modRevision: revision }, revision };
}

function revisions(events: readonly WatchEvent[]): number[] {
  return events.map((event) => event.revision);
}

describe('WatchHub', () => {
  it('hands over from an async replay to live events without gap or duplicate', async () => {
    const hub = new WatchHub();
    let finishReplay: (events: WatchEvent[]) => void = () => {};
    const replayed = new Promise<WatchEvent[]>((resolve) => {
      finishReplay = resolve;
    });
    const watching = hub.watch('/p/', 1, () => replayed);

    // Revisions 3 and 4 are committed while the replay query runs; the query's snapshot already contains 3.
    hub.publish(put('/p/a', 3));
    hub.publish(put('/p/b', 4));
    finishReplay([put('/p/x', 2), put('/p/a', 3)]);
    const watcher = await watching;
    hub.publish(put('/p/c', 5));

    assert.deepEqual(revisions(await new EventReader(watcher).take(4)), [2, 3, 4, 5]);
    watcher.stop();
  });

  it('hands buffered events out synchronously through poll, in order with the iterator', async () => {
    const hub = new WatchHub();
    const watcher = await hub.watch('/p/', 0, () => [put('/p/a', 1)]);
    hub.publish(put('/p/b', 2));
    hub.publish(put('/p/c', 3));
    assert.equal(watcher.poll?.()?.revision, 1);
    const iterator = watcher[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).value?.revision, 2);
    assert.equal(watcher.poll?.()?.revision, 3);
    assert.equal(watcher.poll?.(), undefined, 'nothing is buffered');
    const pending = iterator.next();
    hub.publish(put('/p/d', 4));
    assert.equal((await pending).value?.revision, 4, 'an event for a waiting next() goes to it, not to the buffer');
    assert.equal(watcher.poll?.(), undefined);
    watcher.stop();
    assert.equal(watcher.poll?.(), undefined);
  });

  it('delivers only events under the watched prefix', async () => {
    const hub = new WatchHub();
    const watcher = await hub.watch('/a/', 0, () => []);
    hub.publish(put('/ab/x', 1));
    hub.publish(put('/a/x', 2));
    const [event] = await new EventReader(watcher).take(1);
    assert.equal(event?.kv.key, '/a/x');
    watcher.stop();
  });

  it('matches prefixes that end inside a key and watchers that join after writes to the same directory', async () => {
    const hub = new WatchHub();
    const directory = new EventReader(await hub.watch('/a/', 0, () => []));
    const partial = new EventReader(await hub.watch('/a/b', 0, () => []));
    hub.publish(put('/a/bc', 1));
    hub.publish(put('/a/x', 2));
    const late = new EventReader(await hub.watch('/a/x', 2, () => []));
    hub.publish(put('/a/x', 3));
    hub.publish(put('/a/bd', 4));
    assert.deepEqual(revisions(await directory.take(4)), [1, 2, 3, 4]);
    assert.deepEqual(revisions(await partial.take(2)), [1, 4]);
    assert.deepEqual(revisions(await late.take(1)), [3]);
    hub.close();
  });

  it('unsubscribes a watcher whose replay fails and passes the error on', async () => {
    const hub = new WatchHub();
    await assert.rejects(
      hub.watch('/a/', 0, () => {
        throw new Error('compacted');
      }),
      /compacted/,
    );
    assert.equal(hub.watcherCount, 0);
  });

  it('unsubscribes on stop and when a for-await loop is left early', async () => {
    const hub = new WatchHub();
    const stopped = await hub.watch('/a/', 0, () => []);
    const broken = await hub.watch('/a/', 0, () => []);
    assert.equal(hub.watcherCount, 2);
    stopped.stop();
    hub.publish(put('/a/x', 1));
    for await (const event of broken) {
      assert.equal(event.revision, 1);
      break;
    }
    assert.equal(hub.watcherCount, 0);
  });

  it('ends all watchers on close and refuses new ones', async () => {
    const hub = new WatchHub();
    const reader = new EventReader(await hub.watch('/a/', 0, () => []));
    const ending = reader.expectEnd();
    hub.close();
    await ending;
    await assert.rejects(
      hub.watch('/a/', 0, () => []),
      /closed/,
    );
  });
});
