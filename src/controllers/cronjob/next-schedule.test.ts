import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CronSchedule, parseCronSchedule } from '../../kinds/batch-v1/cron-schedule.js';
import { rfc3339InZone } from './job-template.js';
import { mostRecentScheduleTime, nextActivation } from './next-schedule.js';

function parse(text: string): CronSchedule {
  const parsed = parseCronSchedule(text);
  assert.ok(typeof parsed !== 'string', String(parsed));
  return parsed;
}

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string): number => Date.parse(text);

test('next activation: fields, descriptors, day-of-month OR day-of-week, steps (SpecSchedule.Next)', () => {
  const cases: [string, string, string][] = [
    ['*/15 * * * *', '2026-01-01T10:07:30Z', '2026-01-01T10:15:00.000Z'],
    ['@hourly', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00.000Z'],
    ['@monthly', '2026-01-15T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['0 9 * * mon-fri', '2026-01-02T09:00:00Z', '2026-01-05T09:00:00.000Z'],
    // Both day fields restricted: either matches (the 13th, or any Friday).
    ['0 0 13 * 5', '2026-02-01T00:00:00Z', '2026-02-06T00:00:00.000Z'],
    // A step above 1 on day of week is not a star: the OR applies again.
    ['0 0 1 * */2', '2026-01-01T00:00:00Z', '2026-01-03T00:00:00.000Z'],
    ['30 23 31 12 *', '2026-01-01T00:00:00Z', '2026-12-31T23:30:00.000Z'],
  ];
  for (const [schedule, after, next] of cases) assert.equal(iso(nextActivation(parse(schedule), 'UTC', at(after))), next, schedule);
  assert.equal(nextActivation(parse('0 0 30 2 *'), 'UTC', at('2026-01-01T00:00:00Z')), undefined, '30 February never comes');
  assert.equal(iso(nextActivation(parse('@every 90s'), 'UTC', at('2026-01-01T00:00:00.400Z'))), '2026-01-01T00:01:30.000Z');
});

test('time zones: wall-clock schedules through Intl, TZ= prefixes, RFC 3339 with the offset (R12.117, R12.119)', () => {
  assert.equal(iso(nextActivation(parse('0 9 * * *'), 'Europe/Paris', at('2026-01-01T00:00:00Z'))), '2026-01-01T08:00:00.000Z');
  assert.equal(iso(nextActivation(parse('0 9 * * *'), 'Europe/Paris', at('2026-07-01T00:00:00Z'))), '2026-07-01T07:00:00.000Z');
  const prefixed = parse('TZ=America/New_York 0 0 * * *');
  assert.equal(prefixed.zone, 'America/New_York');
  assert.equal(rfc3339InZone(at('2026-01-01T05:00:00Z'), 'America/New_York'), '2026-01-01T00:00:00-05:00');
  assert.equal(rfc3339InZone(at('2026-01-01T05:00:00Z'), 'UTC'), '2026-01-01T05:00:00Z');
});

test('most recent schedule time: only the latest missed time runs; more than 100 missed are reported (R12.118)', () => {
  const hourly = parse('0 * * * *');
  assert.deepEqual(mostRecentScheduleTime(hourly, 'UTC', at('2026-01-01T10:00:00Z'), at('2026-01-01T10:59:00Z')), { missed: 'none' });
  assert.deepEqual(mostRecentScheduleTime(hourly, 'UTC', at('2026-01-01T10:00:00Z'), at('2026-01-01T11:30:00Z')), {
    scheduled: at('2026-01-01T11:00:00Z'),
    missed: 'none',
  });
  assert.deepEqual(mostRecentScheduleTime(hourly, 'UTC', at('2026-01-01T10:00:00Z'), at('2026-01-01T14:10:00Z')), {
    scheduled: at('2026-01-01T14:00:00Z'),
    missed: 'few',
  });
  const many = mostRecentScheduleTime(parse('* * * * *'), 'UTC', at('2026-01-01T10:00:00Z'), at('2026-01-01T12:00:30Z'));
  assert.deepEqual(many, { scheduled: at('2026-01-01T12:00:00Z'), missed: 'many' });
});
