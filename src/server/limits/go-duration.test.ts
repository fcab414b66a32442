import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoDuration } from './go-duration.js';

describe('Go duration parsing (time.ParseDuration)', () => {
  it('reads every unit, fractions and sums, in milliseconds', () => {
    assert.equal(parseGoDuration('0'), 0);
    assert.equal(parseGoDuration('300ms'), 300);
    assert.equal(parseGoDuration('30s'), 30_000);
    assert.equal(parseGoDuration('1.5s'), 1500);
    assert.equal(parseGoDuration('.5s'), 500);
    assert.equal(parseGoDuration('2.s'), 2000);
    assert.equal(parseGoDuration('1h30m'), 5_400_000);
    assert.equal(parseGoDuration('1m0s'), 60_000);
    assert.equal(parseGoDuration('+2m'), 120_000);
    assert.equal(parseGoDuration('-1s'), -1000);
    assert.equal(parseGoDuration('1500us'), 1.5);
    assert.equal(parseGoDuration('1µs'), 0.001);
    assert.equal(parseGoDuration('2000000ns'), 2);
  });

  it('fails with Go’s messages', () => {
    assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
    assert.throws(() => parseGoDuration('invalid'), { message: 'time: invalid duration "invalid"' });
    assert.throws(() => parseGoDuration('.s'), { message: 'time: invalid duration ".s"' });
    assert.throws(() => parseGoDuration('-'), { message: 'time: invalid duration "-"' });
    assert.throws(() => parseGoDuration('10'), { message: 'time: missing unit in duration "10"' });
    assert.throws(() => parseGoDuration('1d'), { message: 'time: unknown unit "d" in duration "1d"' });
    assert.throws(() => parseGoDuration('1é'), { message: 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"' });
    assert.throws(() => parseGoDuration('9999999999h'), { message: 'time: invalid duration "9999999999h"' });
  });
});
