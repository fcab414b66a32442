import { goQuote } from '../../util/go-quote.js';

/**
 * robfig/cron v3's standard parser (minute, hour, day of month, month, day of week, or an @descriptor), used by
 * CronJob validation for its error texts and by the CronJob controller for the parsed schedule.
 */

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAY_NAMES = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 0, max: 6, names: DAY_NAMES },
];
/** Each descriptor's five-field equivalent. */
const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);
/** Go's strconv.Atoi accepts an optional sign and decimal digits only. */
const GO_INT = /^[+-]?[0-9]+$/;

/** Whether the IANA zone exists in this runtime's time zone database (Go's time.LoadLocation). */
export function loadLocationError(zone: string): string | undefined {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}

function parseGoInt(expr: string): number | string {
  if (!GO_INT.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`;
  const num = Number(expr);
  if (num < 0) return `negative number (${num}) not allowed: ${expr}`;
  return num;
}

function parseIntOrName(expr: string, bounds: Bounds): number | string {
  const named = bounds.names?.[expr.toLowerCase() as keyof typeof bounds.names];
  return named ?? parseGoInt(expr);
}

/** The values of one field expression, and whether it started with `*` or `?` without a step above 1. */
interface FieldRange {
  readonly values: number[];
  readonly star: boolean;
}

function parseRange(expr: string, bounds: Bounds): FieldRange | string {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    const low = parseIntOrName(lowAndHigh[0] ?? '', bounds);
    if (typeof low === 'string') return low;
    start = low;
    end = low;
    if (lowAndHigh.length === 2) {
      const high = parseIntOrName(lowAndHigh[1] ?? '', bounds);
      if (typeof high === 'string') return high;
      end = high;
    } else if (lowAndHigh.length > 2) return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const parsed = parseGoInt(rangeAndStep[1] ?? '');
    if (typeof parsed === 'string') return parsed;
    step = parsed;
    if (lowAndHigh.length === 1) end = bounds.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expr}`;
  if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  const values: number[] = [];
  for (let v = start; v <= end; v += step) values.push(v);
  return { values, star };
}

/** Go's time.ParseDuration, reduced to whether it accepts the text and its error when not. */
function durationError(text: string): string | undefined {
  const quoted = goQuote(text);
  let rest = text.replace(/^[-+]/, '');
  if (rest === '0') return undefined;
  if (rest === '') return `time: invalid duration ${quoted}`;
  while (rest !== '') {
    const number = /^([0-9]*)(\.[0-9]*)?/.exec(rest)?.[0] ?? '';
    if (number === '' || number === '.') return `time: invalid duration ${quoted}`;
    rest = rest.slice(number.length);
    const unit = /^[^0-9.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${goQuote(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

/** A parsed schedule: the allowed values of each field, or a constant delay (`@every`); in the zone a TZ= prefix named. */
export type CronSchedule =
  | {
      readonly kind: 'fields';
      readonly minutes: ReadonlySet<number>;
      readonly hours: ReadonlySet<number>;
      readonly daysOfMonth: ReadonlySet<number>;
      readonly months: ReadonlySet<number>;
      readonly daysOfWeek: ReadonlySet<number>;
      /** Day of month or day of week was `*`/`?`: then both must match, otherwise either does. */
      readonly dayStar: boolean;
      readonly zone?: string;
    }
  | { readonly kind: 'every'; readonly everyMs: number; readonly zone?: string };

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration Go's time.ParseDuration accepts (checked by durationError first), in milliseconds. */
function durationMs(text: string): number {
  let total = 0;
  for (const [, number, unit] of text.matchAll(/([0-9]*\.?[0-9]*)([^0-9.]+)/g)) total += Number(number) * (UNIT_MS[unit ?? ''] ?? 0);
  return text.startsWith('-') ? -total : total;
}

/** robfig's ParseStandard: the schedule, or its error text. */
export function parseCronSchedule(schedule: string): CronSchedule | string {
  if (schedule === '') return 'empty spec string';
  let spec = schedule;
  let zone: string | undefined;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    zone = spec.slice(spec.indexOf('=') + 1, space === -1 ? undefined : space);
    const error = loadLocationError(zone);
    if (error !== undefined) return `provided bad location ${zone}: ${error}`;
    spec = space === -1 ? '' : spec.slice(space).trim();
  }
  const inZone = zone === undefined ? {} : { zone };
  if (spec.startsWith('@')) {
    const expanded = DESCRIPTORS[spec];
    if (expanded !== undefined) spec = expanded;
    else if (spec.startsWith('@every ')) {
      const text = spec.slice('@every '.length);
      const error = durationError(text);
      if (error !== undefined) return `failed to parse duration ${spec}: ${error}`;
      // ConstantDelaySchedule: whole seconds, at least one.
      return { kind: 'every', everyMs: Math.max(1000, Math.floor(durationMs(text) / 1000) * 1000), ...inZone };
    } else return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter((field) => field !== '');
  if (fields.length !== FIELDS.length) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const parsed: { values: Set<number>; star: boolean }[] = [];
  for (const [index, field] of fields.entries()) {
    const bounds = FIELDS[index] as Bounds;
    const values = new Set<number>();
    let star = false;
    for (const expr of field.split(',').filter((part) => part !== '')) {
      const range = parseRange(expr, bounds);
      if (typeof range === 'string') return range;
      for (const v of range.values) values.add(v);
      star ||= range.star;
    }
    parsed.push({ values, star });
  }
  const at = (i: number): { values: Set<number>; star: boolean } => parsed[i] as { values: Set<number>; star: boolean };
  return {
    kind: 'fields',
    minutes: at(0).values,
    hours: at(1).values,
    daysOfMonth: at(2).values,
    months: at(3).values,
    daysOfWeek: at(4).values,
    dayStar: at(2).star || at(4).star,
    ...inZone,
  };
}

/** CronJob validation's check: the parser's error text, or undefined for a valid schedule. */
export function cronScheduleError(schedule: string): string | undefined {
  const parsed = parseCronSchedule(schedule);
  return typeof parsed === 'string' ? parsed : undefined;
}
