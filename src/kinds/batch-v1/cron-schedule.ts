import { goQuote } from '../../util/go-quote.js';

/**
 * The schedule check of CronJob validation: robfig/cron v3's standard parser (minute, hour, day of month, month,
 * day of week, or an @descriptor), answering its error text, or undefined for a valid schedule.
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
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
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

function rangeError(expr: string, bounds: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
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
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expr}`;
  if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
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

export function cronScheduleError(schedule: string): string | undefined {
  if (schedule === '') return 'empty spec string';
  let spec = schedule;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const zone = spec.slice(spec.indexOf('=') + 1, space === -1 ? undefined : space);
    const error = loadLocationError(zone);
    if (error !== undefined) return `provided bad location ${zone}: ${error}`;
    spec = space === -1 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return undefined;
    if (spec.startsWith('@every ')) {
      const error = durationError(spec.slice('@every '.length));
      return error === undefined ? undefined : `failed to parse duration ${spec}: ${error}`;
    }
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter((field) => field !== '');
  if (fields.length !== FIELDS.length) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (const [index, field] of fields.entries()) {
    const bounds = FIELDS[index] as Bounds;
    for (const expr of field.split(',').filter((part) => part !== '')) {
      const error = rangeError(expr, bounds);
      if (error !== undefined) return error;
    }
  }
  return undefined;
}
