import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock.js';
import { createQueueMetricsRegistry } from './metrics.js';
import { createRateLimitedQueue } from './rate-limited-queue.js';
import { createDefaultControllerRateLimiter } from './rate-limiter.js';

test('addRateLimited backs an item off exponentially until forget', async () => {
  const clock = new FakeClock();
  const q = createRateLimitedQueue<string>({ clock });
  const readyAfter = (): number => {
    const start = clock.now();
    while (q.len() === 0) clock.advance(1);
    return clock.now() - start;
  };
  const delays: number[] = [];
  for (let i = 0; i < 4; i++) {
    q.addRateLimited('a');
    delays.push(readyAfter());
    const item = await q.get();
    assert.equal(item, 'a');
    q.done('a');
  }
  assert.deepEqual(delays, [5, 10, 20, 40]);
  assert.equal(q.numRequeues('a'), 4);
  q.forget('a');
  assert.equal(q.numRequeues('a'), 0);
  q.addRateLimited('a');
  assert.equal(readyAfter(), 5);
  assert.equal(q.metrics.retries, 5);
});

test('retries count in the registered metrics', () => {
  const registry = createQueueMetricsRegistry();
  const q = createRateLimitedQueue<string>({ clock: new FakeClock(), metrics: registry.register('garbage_collector_attempt_to_delete') });
  q.add('x');
  q.addRateLimited('y');
  assert.deepEqual(
    registry.all().map((m) => ({ ...m })),
    [{ name: 'garbage_collector_attempt_to_delete', depth: 1, adds: 1, retries: 1 }],
  );
  assert.throws(() => registry.register('garbage_collector_attempt_to_delete'), /already registered/);
});

test('with fast limits, 10,000 failing items are all retried through four workers well within a second', async () => {
  const q = createRateLimitedQueue<number>({
    rateLimiter: createDefaultControllerRateLimiter({ baseDelayMs: 0, qps: Number.POSITIVE_INFINITY }),
  });
  const attempts = new Map<number, number>();
  let finished = 0;
  const worker = async (): Promise<void> => {
    for (let item = await q.get(); item !== undefined; item = await q.get()) {
      const n = (attempts.get(item) ?? 0) + 1;
      attempts.set(item, n);
      if (n === 1) q.addRateLimited(item);
      else {
        q.forget(item);
        finished++;
        if (finished === 10_000) q.shutDown();
      }
      q.done(item);
    }
  };
  const start = performance.now();
  for (let i = 0; i < 10_000; i++) q.add(i);
  await Promise.all([worker(), worker(), worker(), worker()]);
  const elapsed = performance.now() - start;
  assert.equal(finished, 10_000);
  assert.ok(elapsed < 1000, `took ${elapsed} ms`);
});
