import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cronScheduleError } from './cron-schedule.js';

test('accepts what robfig/cron v3 standard parsing accepts', () => {
  for (const schedule of ['*/1 * * * *', '0 9 * * mon-fri', '5,10-20/5 0-23 1 jan-dec ?', '@hourly', '@every 1h30m', '@every 0', 'TZ=UTC 0 * * * *']) {
    assert.equal(cronScheduleError(schedule), undefined, schedule);
  }
});

test('answers robfig/cron v3 error texts', () => {
  const cases: [string, string][] = [
    ['', 'empty spec string'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['0 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['-1 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['@often', 'unrecognized descriptor: @often'],
    ['@every 1d', 'failed to parse duration @every 1d: time: unknown unit "d" in duration "1d"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['TZ=Nowhere/Else 0 * * * *', 'provided bad location Nowhere/Else: unknown time zone Nowhere/Else'],
  ];
  for (const [schedule, error] of cases) assert.equal(cronScheduleError(schedule), error, schedule);
});
