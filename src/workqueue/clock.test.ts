import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock, realClock } from './clock.js';

test('FakeClock fires due timers in due order, ties in creation order, and sets now() to each due time', () => {
  const clock = new FakeClock(100);
  const fired: string[] = [];
  clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
  clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
  clock.setTimeout(() => fired.push(`c@${clock.now()}`), 20);
  clock.setTimeout(() => fired.push('late'), 31);
  clock.advance(30);
  assert.deepEqual(fired, ['a@110', 'b@120', 'c@120']);
  assert.equal(clock.now(), 130);
  assert.equal(clock.pendingTimers(), 1);
});

test('FakeClock fires timers scheduled by timers when they fall due within the same advance', () => {
  const clock = new FakeClock();
  const fired: number[] = [];
  clock.setTimeout(() => {
    fired.push(clock.now());
    clock.setTimeout(() => fired.push(clock.now()), 5);
  }, 5);
  clock.advance(10);
  assert.deepEqual(fired, [5, 10]);
});

test('a cancelled FakeClock timer never fires; cancelling twice is harmless', () => {
  const clock = new FakeClock();
  let fired = false;
  const cancel = clock.setTimeout(() => {
    fired = true;
  }, 1);
  cancel();
  cancel();
  clock.advance(10);
  assert.equal(fired, false);
  assert.equal(clock.pendingTimers(), 0);
});

test('realClock timers fire after the delay and can be cancelled', async () => {
  // realClock timers are unref'd: this interval keeps the process alive while the test waits on them.
  const keepAlive = setInterval(() => {}, 1000);
  try {
    const start = realClock.now();
    await new Promise<void>((resolve) => realClock.setTimeout(resolve, 15));
    assert.ok(realClock.now() - start >= 15);
    let fired = false;
    realClock.setTimeout(() => {
      fired = true;
    }, 1)();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(fired, false);
  } finally {
    clearInterval(keepAlive);
  }
});
