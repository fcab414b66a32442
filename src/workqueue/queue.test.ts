import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createQueueMetrics } from './metrics.js';
import { createQueue } from './queue.js';

test('an item that is already waiting is not added twice; items come out in order', async () => {
  const q = createQueue<string>();
  q.add('a');
  q.add('b');
  q.add('a');
  assert.equal(q.len(), 2);
  assert.equal(await q.get(), 'a');
  assert.equal(await q.get(), 'b');
  assert.equal(q.len(), 0);
});

test('an item re-added while being processed is queued again only after done', async () => {
  const q = createQueue<string>();
  q.add('a');
  const item = await q.get();
  assert.equal(item, 'a');
  q.add('a');
  q.add('a');
  assert.equal(q.len(), 0, 'not handed out while still processing');
  q.done('a');
  assert.equal(q.len(), 1);
  assert.equal(await q.get(), 'a');
  q.done('a');
  assert.equal(q.len(), 0, 'done without a re-add does not queue it again');
});

test('tryGet hands out a waiting item as get does, and nothing when the queue is empty', async () => {
  const q = createQueue<string>();
  assert.equal(q.tryGet(), undefined);
  q.add('a');
  q.add('b');
  assert.equal(q.tryGet(), 'a');
  q.add('a');
  assert.equal(q.len(), 1, 'an item taken by tryGet is being processed: its re-add waits for done');
  assert.equal(await q.get(), 'b');
  assert.equal(q.tryGet(), undefined);
  q.done('a');
  assert.equal(q.tryGet(), 'a');
  q.done('a');
  q.done('b');
  assert.equal(q.len(), 0);
});

test('get waits for an add and hands each item to exactly one waiter', async () => {
  const q = createQueue<string>();
  const first = q.get();
  const second = q.get();
  q.add('x');
  q.add('y');
  assert.deepEqual(await Promise.all([first, second]), ['x', 'y']);
});

test('items are compared by the key function', async () => {
  const q = createQueue<{ uid: string; note: string }>({ keyOf: (i) => i.uid });
  q.add({ uid: '1', note: 'first' });
  q.add({ uid: '1', note: 'second' });
  assert.equal(q.len(), 1);
  const got = await q.get();
  assert.equal(got?.note, 'first');
  q.add({ uid: '1', note: 'third' });
  q.done({ uid: '1', note: 'whatever' });
  assert.equal((await q.get())?.note, 'third');
});

test('shutDown resolves waiting gets with undefined, ignores later adds and drains what was queued', async () => {
  const q = createQueue<string>();
  const waiting = q.get();
  q.shutDown();
  assert.equal(await waiting, undefined);
  assert.equal(q.shuttingDown, true);
  q.add('ignored');
  assert.equal(q.len(), 0);
  assert.equal(await q.get(), undefined);

  const draining = createQueue<string>();
  draining.add('left');
  draining.shutDown();
  assert.equal(await draining.get(), 'left');
  assert.equal(await draining.get(), undefined);
});

test('several workers never process the same item at once, and every re-add is processed', async () => {
  const q = createQueue<number>();
  const inFlight = new Set<number>();
  const processedCount = new Map<number, number>();
  let overlaps = 0;
  const worker = async (): Promise<void> => {
    for (let item = await q.get(); item !== undefined; item = await q.get()) {
      if (inFlight.has(item)) overlaps++;
      inFlight.add(item);
      processedCount.set(item, (processedCount.get(item) ?? 0) + 1);
      await new Promise((resolve) => setImmediate(resolve));
      // Re-adding while processing must lead to exactly one more pass after done.
      if ((processedCount.get(item) ?? 0) === 1) q.add(item);
      inFlight.delete(item);
      q.done(item);
    }
  };
  for (let i = 0; i < 50; i++) q.add(i % 25);
  const workers = [worker(), worker(), worker(), worker()];
  for (let i = 0; i < 25; i++) q.add(i);
  while (q.len() > 0 || inFlight.size > 0) await new Promise((resolve) => setImmediate(resolve));
  q.shutDown();
  await Promise.all(workers);
  assert.equal(overlaps, 0);
  for (let i = 0; i < 25; i++) assert.equal(processedCount.get(i), 2, `item ${i}`);
});

test('metrics count accepted adds and the depth of waiting items', async () => {
  const metrics = createQueueMetrics('test');
  const q = createQueue<string>({ metrics });
  q.add('a');
  q.add('a');
  q.add('b');
  assert.deepEqual({ ...metrics }, { name: 'test', depth: 2, adds: 2, retries: 0 });
  await q.get();
  assert.equal(metrics.depth, 1);
  assert.equal(q.metrics, metrics);
});
