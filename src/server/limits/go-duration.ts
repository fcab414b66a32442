import { goTimeQuote } from '../../util/go-quote.js';

/** Nanoseconds per unit, as Go's time.ParseDuration names them (micro has three spellings). */
const UNIT_NANOS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const MAX_DURATION_NANOS = 2 ** 63 - 1;

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';

/**
 * time.ParseDuration in milliseconds: "300ms", "1.5h", "2h45m", "-1s". Throws with Go's messages
 * (`time: invalid duration "x"`, `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`).
 */
export function parseGoDuration(text: string): number {
  const invalid = (): Error => new Error(`time: invalid duration ${goTimeQuote(text)}`);
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let nanos = 0;
  while (rest !== '') {
    if (rest[0] !== '.' && !isDigit(rest[0])) throw invalid();
    let i = 0;
    while (isDigit(rest[i])) i++;
    const whole = rest.slice(0, i);
    rest = rest.slice(i);
    let fraction = '';
    if (rest.startsWith('.')) {
      let j = 1;
      while (isDigit(rest[j])) j++;
      fraction = rest.slice(1, j);
      rest = rest.slice(j);
    }
    if (whole === '' && fraction === '') throw invalid();
    let u = 0;
    while (u < rest.length && rest[u] !== '.' && !isDigit(rest[u])) u++;
    if (u === 0) throw new Error(`time: missing unit in duration ${goTimeQuote(text)}`);
    const unit = rest.slice(0, u);
    rest = rest.slice(u);
    const perUnit = UNIT_NANOS[unit];
    if (perUnit === undefined) throw new Error(`time: unknown unit ${goTimeQuote(unit)} in duration ${goTimeQuote(text)}`);
    nanos += Number(whole === '' ? '0' : whole) * perUnit + (fraction === '' ? 0 : Number(`0.${fraction}`) * perUnit);
    if (nanos > MAX_DURATION_NANOS) throw invalid();
  }
  const millis = nanos / 1e6;
  return negative ? -millis : millis;
}
