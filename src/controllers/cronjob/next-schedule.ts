import type { CronSchedule } from '../../kinds/batch-v1/cron-schedule.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** robfig gives up looking for a match this many years ahead (an impossible date such as 30 February). */
const YEARS_AHEAD = 5;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's offset from UTC at an instant (ms, whole seconds), through Node's time zone database. */
export function zoneOffsetMs(zone: string, utcMs: number): number {
  if (zone === 'UTC') return 0;
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** The instant a wall-clock time in the zone names (the later offset wins around a transition). */
function wallToUtc(zone: string, wallMs: number): number {
  const guess = wallMs - zoneOffsetMs(zone, wallMs);
  return wallMs - zoneOffsetMs(zone, guess);
}

/**
 * The first activation strictly after `afterMs` (SpecSchedule.Next / ConstantDelaySchedule.Next), evaluated on the
 * zone's wall clock; undefined when no time in the next five years matches.
 */
export function nextActivation(schedule: CronSchedule, zone: string, afterMs: number): number | undefined {
  if (schedule.kind === 'every') return Math.floor(afterMs / 1000) * 1000 + schedule.everyMs;
  // Wall-clock time expressed as a UTC timestamp, so Date's UTC accessors read the zone's fields.
  let t = Math.floor((afterMs + zoneOffsetMs(zone, afterMs)) / MINUTE) * MINUTE + MINUTE;
  const limit = new Date(t).getUTCFullYear() + YEARS_AHEAD;
  const dayMatches = (d: Date): boolean => {
    const dom = schedule.daysOfMonth.has(d.getUTCDate());
    const dow = schedule.daysOfWeek.has(d.getUTCDay());
    return schedule.dayStar ? dom && dow : dom || dow;
  };
  for (;;) {
    const d = new Date(t);
    if (d.getUTCFullYear() > limit) return undefined;
    if (!schedule.months.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    } else if (!dayMatches(d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + DAY;
    } else if (!schedule.hours.has(d.getUTCHours())) {
      t = Math.floor(t / HOUR) * HOUR + HOUR;
    } else if (!schedule.minutes.has(d.getUTCMinutes())) {
      t += MINUTE;
    } else {
      const at = wallToUtc(zone, t);
      // A wall time skipped by a DST change maps before `afterMs`: look further.
      if (at > afterMs) return at;
      t += MINUTE;
    }
  }
}

export type Missed = 'none' | 'few' | 'many';

/**
 * mostRecentScheduleTime (R12.118): the latest activation in (earliest, now], where earliest is the last schedule
 * time (or creation), raised to now − startingDeadlineSeconds; and whether more than 100 were missed. Throws when
 * two successive activations are less than a second apart or none exists.
 */
export function mostRecentScheduleTime(
  schedule: CronSchedule,
  zone: string,
  earliestMs: number,
  nowMs: number,
): { scheduled?: number; missed: Missed } {
  const first = nextActivation(schedule, zone, earliestMs);
  if (first === undefined || first > nowMs) return { missed: 'none' };
  const second = nextActivation(schedule, zone, first);
  if (second === undefined || second > nowMs) return { scheduled: first, missed: 'none' };
  const interval = Math.round((second - first) / 1000);
  if (interval < 1) throw new Error('time difference between two schedules is less than 1 second');
  const missedCount = Math.floor((nowMs - first) / 1000 / interval) + 1;
  // Start one interval before the estimate so irregular schedules still land on their real last activation.
  let t = nextActivation(schedule, zone, first + (missedCount - 2) * interval * 1000);
  let latest: number | undefined;
  while (t !== undefined && t <= nowMs) {
    latest = t;
    t = nextActivation(schedule, zone, t);
  }
  return { ...(latest === undefined ? {} : { scheduled: latest }), missed: missedCount > 100 ? 'many' : 'few' };
}
