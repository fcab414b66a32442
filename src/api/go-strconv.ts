import { goQuote } from '../util/go-quote.js';

/**
 * The conversions apimachinery applies to query parameters (runtime.Convert_Slice_string_To_*): only the first value
 * of a repeated parameter counts, and numbers go through Go's strconv with its error texts, which the apiserver
 * returns verbatim in a 400.
 */

/** strconv's error for a value it cannot parse, e.g. `strconv.ParseInt: parsing "1.5": invalid syntax`. */
export class GoNumberError extends Error {}

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const UINT64_MAX = 18446744073709551615n;

/**
 * A boolean parameter, given its first value (null: absent): false only when absent, "0" or "false" in any letter case (Go's EqualFold, so the long s
 * "ſ" counts as an "s"); anything else, the empty string included, is true. Python's client sends "True".
 */
export function goBool(first: string | null): boolean {
  if (first === null) return false;
  return !(first === '0' || equalFoldFalse(first));
}

function equalFoldFalse(s: string): boolean {
  if (s.length !== 5) return false;
  const lower = s.toLowerCase();
  return lower === 'false' || lower.replace('ſ', 's') === 'false';
}

/**
 * Go's scan of decimal digits: a character that is not a digit is a syntax error, unless the digits before it
 * already overflowed uint64 (Go notices the overflow first); an empty string is a syntax error.
 */
function scanDecimal(digits: string): bigint | 'syntax' | 'range' {
  const bad = digits.search(/[^0-9]/);
  const prefix = bad < 0 ? digits : digits.slice(0, bad);
  if (prefix.length > 19 && BigInt(prefix) > UINT64_MAX) return 'range';
  if (bad >= 0 || digits === '') return 'syntax';
  return BigInt(digits);
}

/** strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, within int64. */
export function parseInt64(s: string): number {
  const negative = s.startsWith('-');
  const digits = negative || s.startsWith('+') ? s.slice(1) : s;
  const scanned = scanDecimal(digits);
  if (scanned === 'syntax') throw new GoNumberError(`strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`);
  if (scanned === 'range' || (negative ? -scanned < INT64_MIN : scanned > INT64_MAX)) {
    throw new GoNumberError(`strconv.ParseInt: parsing ${goQuote(s)}: value out of range`);
  }
  // Beyond 2^53 the value is approximate; every use (limits, timeouts, grace periods) only compares it.
  const value = Number(digits);
  return negative && value !== 0 ? -value : value;
}

/** strconv.ParseUint(s, 10, 64): decimal digits only (no sign, space or base prefix), within uint64. */
export function parseUint64(s: string): bigint {
  const scanned = scanDecimal(s);
  if (scanned === 'syntax') throw new GoNumberError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  if (scanned === 'range') throw new GoNumberError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return scanned;
}
