import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock.js';
import {
  createBucketRateLimiter,
  createDefaultControllerRateLimiter,
  createItemExponentialFailureRateLimiter,
  createMaxOfRateLimiter,
} from './rate-limiter.js';

test('per-item backoff doubles from the base delay up to the cap, per item, until forgotten', () => {
  const limiter = createItemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 30 });
  assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('a'), limiter.when('a'), limiter.when('a')], [5, 10, 20, 30, 30]);
  assert.equal(limiter.when('b'), 5);
  assert.equal(limiter.numRequeues('a'), 5);
  limiter.forget('a');
  assert.equal(limiter.numRequeues('a'), 0);
  assert.equal(limiter.when('a'), 5);
});

test('per-item backoff stays at the cap however many failures pile up', () => {
  const limiter = createItemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1_000_000 });
  let last = 0;
  for (let i = 0; i < 2000; i++) last = limiter.when('x');
  assert.equal(last, 1_000_000);
});

test('the token bucket allows a burst, then spaces retries at 1/qps, refilling as time passes', () => {
  const clock = new FakeClock();
  const bucket = createBucketRateLimiter<string>({ qps: 10, burst: 3, clock });
  assert.deepEqual([bucket.when('a'), bucket.when('b'), bucket.when('c')], [0, 0, 0]);
  assert.equal(bucket.when('d'), 100);
  assert.equal(bucket.when('e'), 200, 'reservations queue up behind each other');
  clock.advance(1000);
  // A second refills 10 tokens: the two reserved ones are paid back and the bucket is full again (capped at the burst).
  assert.equal(bucket.when('f'), 0);
});

test('an infinite qps bucket never delays', () => {
  const bucket = createBucketRateLimiter<string>({ qps: Number.POSITIVE_INFINITY, burst: 1 });
  for (let i = 0; i < 1000; i++) assert.equal(bucket.when('x'), 0);
});

test('max-of takes the slowest limiter and forwards forget to all', () => {
  const a = createItemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: 1000 });
  const b = createItemExponentialFailureRateLimiter<string>({ baseDelayMs: 7, maxDelayMs: 7 });
  const max = createMaxOfRateLimiter(a, b);
  assert.deepEqual([max.when('x'), max.when('x'), max.when('x'), max.when('x')], [7, 7, 7, 8]);
  assert.equal(max.numRequeues('x'), 4);
  max.forget('x');
  assert.equal(a.numRequeues('x'), 0);
  assert.equal(b.numRequeues('x'), 0);
});

test('the default controller limiter is 5 ms per-item backoff combined with 10 qps, burst 100', () => {
  const clock = new FakeClock();
  const limiter = createDefaultControllerRateLimiter<string>({ clock });
  assert.equal(limiter.when('one'), 5);
  assert.equal(limiter.when('one'), 10);
  for (let i = 0; i < 98; i++) limiter.when(`item-${i}`);
  // The bucket's 100 tokens are spent: the next new item waits 1/10 s instead of 5 ms.
  assert.equal(limiter.when('fresh'), 100);
});
