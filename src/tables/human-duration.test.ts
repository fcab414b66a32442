import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanDuration } from './human-duration.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  const cases: [milliseconds: number, text: string][] = [
    [-2500, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [999, '0s'],
    [59 * SECOND, '59s'],
    [119 * SECOND, '119s'],
    [2 * MINUTE, '2m'],
    [2 * MINUTE + 5 * SECOND, '2m5s'],
    [9 * MINUTE + 59 * SECOND, '9m59s'],
    [10 * MINUTE + 30 * SECOND, '10m'],
    [179 * MINUTE, '179m'],
    [3 * HOUR, '3h'],
    [3 * HOUR + 30 * MINUTE, '3h30m'],
    [8 * HOUR + 30 * MINUTE, '8h'],
    [47 * HOUR, '47h'],
    [48 * HOUR, '2d'],
    [50 * HOUR, '2d2h'],
    [8 * DAY + 5 * HOUR, '8d'],
    [729 * DAY, '729d'],
    [730 * DAY, '2y'],
    [800 * DAY, '2y70d'],
    [8 * 365 * DAY, '8y'],
    [20 * 365 * DAY, '20y'],
  ];
  for (const [milliseconds, text] of cases) {
    it(`${milliseconds}ms → ${text}`, () => assert.equal(humanDuration(milliseconds), text));
  }
});
