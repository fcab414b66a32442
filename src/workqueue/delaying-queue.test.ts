import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock.js';
import { createDelayingQueue } from './delaying-queue.js';

test('addAfter adds the item once its delay has passed on the injected clock', async () => {
  const clock = new FakeClock();
  const q = createDelayingQueue<string>({ clock });
  q.addAfter('a', 50);
  clock.advance(49);
  assert.equal(q.len(), 0);
  clock.advance(1);
  assert.equal(q.len(), 1);
  assert.equal(await q.get(), 'a');
  assert.equal(q.metrics.retries, 1);
});

test('waiting items become ready in ready-time order', async () => {
  const clock = new FakeClock();
  const q = createDelayingQueue<string>({ clock });
  q.addAfter('slow', 30);
  q.addAfter('fast', 10);
  q.addAfter('middle', 20);
  clock.advance(100);
  assert.deepEqual([await q.get(), await q.get(), await q.get()], ['fast', 'middle', 'slow']);
});

test('an item waiting twice keeps the earlier ready time', () => {
  const clock = new FakeClock();
  const q = createDelayingQueue<string>({ clock });
  q.addAfter('a', 100);
  q.addAfter('a', 10);
  q.addAfter('a', 50);
  clock.advance(10);
  assert.equal(q.len(), 1);
  clock.advance(100);
  assert.equal(q.len(), 1, 'not added a second time');
  assert.equal(clock.pendingTimers(), 0);
});

test('a delay of zero or less adds at once', () => {
  const q = createDelayingQueue<string>({ clock: new FakeClock() });
  q.addAfter('now', 0);
  q.addAfter('past', -5);
  assert.equal(q.len(), 2);
});

test('shutDown drops waiting items and cancels the timer; later addAfter is ignored', async () => {
  const clock = new FakeClock();
  const q = createDelayingQueue<string>({ clock });
  q.addAfter('a', 10);
  q.shutDown();
  assert.equal(clock.pendingTimers(), 0);
  q.addAfter('b', 10);
  assert.equal(clock.pendingTimers(), 0);
  clock.advance(100);
  assert.equal(await q.get(), undefined);
});

test('with the real clock a delayed item arrives without the test touching time', async () => {
  const q = createDelayingQueue<string>();
  q.addAfter('later', 5);
  // Unref'd timers: keep the event loop busy while waiting so the test itself holds the process open.
  const keepAlive = setInterval(() => {}, 1000);
  try {
    assert.equal(await q.get(), 'later');
  } finally {
    clearInterval(keepAlive);
    q.shutDown();
  }
});
