import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PodFailureBackoff } from './backoff.js';

test('pod failure back-off: 10 s × 2^(k−1) from the last failure, capped, reset by a success (R12.104)', () => {
  const backoff = new PodFailureBackoff({ baseMs: 10_000, maxMs: 600_000 });
  assert.equal(backoff.remainingMs('ns/j', 0), 0);
  backoff.observe('ns/j', 0, 1, 1_000);
  assert.equal(backoff.remainingMs('ns/j', 1_000), 10_000);
  backoff.observe('ns/j', 0, 2, 5_000);
  assert.equal(backoff.remainingMs('ns/j', 5_000), 40_000);
  backoff.observe('ns/j', 0, 10, 6_000);
  assert.equal(backoff.remainingMs('ns/j', 6_000), 600_000, 'capped');
  backoff.observe('ns/j', 1, 0, 7_000);
  assert.equal(backoff.remainingMs('ns/j', 7_000), 0);
});
