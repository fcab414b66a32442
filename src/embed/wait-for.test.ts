import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from './wait-for.js';

test('waitFor resolves with the first value that is neither undefined nor false', async () => {
  let calls = 0;
  const value = await waitFor(() => (++calls < 3 ? false : `after ${calls}`), { intervalMs: 1 });
  assert.equal(value, 'after 3');
});

test('waitFor gives up after the bound, naming what it waited for and the last error', async () => {
  const started = performance.now();
  await assert.rejects(
    waitFor(
      () => {
        throw new Error('still there');
      },
      { timeoutMs: 50, intervalMs: 5, what: 'the pod to go' },
    ),
    { message: 'timed out after 50 ms waiting for the pod to go: still there' },
  );
  assert.ok(performance.now() - started >= 50);
});
