import { quantityValue } from './quantity-value.js';
/**
 * resource.Quantity's canonical String(), which Kubernetes prints in resource errors ("must be less than or equal
 * to cpu limit of 1" for a limit written "1000m"). Exact for the decimal and binary SI forms people write; the
 * rarely used exponent form ("1e3") is printed in decimal SI.
 */

const BINARY_SUFFIXES: readonly [string, bigint][] = [
  ['Ei', 1n << 60n],
  ['Pi', 1n << 50n],
  ['Ti', 1n << 40n],
  ['Gi', 1n << 30n],
  ['Mi', 1n << 20n],
  ['Ki', 1n << 10n],
];
const DECIMAL_SUFFIXES: readonly [string, number][] = [
  ['E', 18],
  ['P', 15],
  ['T', 12],
  ['G', 9],
  ['M', 6],
  ['k', 3],
  ['', 0],
  ['m', -3],
  ['u', -6],
  ['n', -9],
];
const DECIMAL_EXPONENT: Readonly<Record<string, number>> = Object.fromEntries(DECIMAL_SUFFIXES);
const BINARY_FACTOR: Readonly<Record<string, bigint>> = Object.fromEntries(BINARY_SUFFIXES);
const QUANTITY_RE = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/;
const NANO = 10n ** 9n;

/** The quantity in nano units (rounded up, as Go rounds to nano precision) and whether it was written in binary SI. */
function parse(text: string): { nanos: bigint; binary: boolean } | undefined {
  const m = QUANTITY_RE.exec(text.trim());
  if (m === null) return undefined;
  const [, sign = '', whole = '', rawFraction = '', suffix = ''] = m;
  if (whole === '' && rawFraction === '') return undefined;
  const negative = sign === '-';
  const significantWhole = whole.replace(/^0+/, '');
  const zero = significantWhole === '' && !/[1-9]/.test(rawFraction);
  const decimalExponent = DECIMAL_EXPONENT[suffix] ?? (/^[eE][-+]?\d+$/.test(suffix) ? Number(suffix.slice(1)) : undefined);
  if (zero) return BINARY_FACTOR[suffix] !== undefined || decimalExponent !== undefined ? { nanos: 0n, binary: false } : undefined;
  if (significantWhole.length > MAX_SIGNIFICANT_DIGITS || (decimalExponent !== undefined && decimalExponent > MAX_EXPONENT)) {
    return { nanos: negative ? -CAPPED_NANOS : CAPPED_NANOS, binary: false };
  }
  if (decimalExponent !== undefined && decimalExponent < -MAX_EXPONENT) return { nanos: negative ? 0n : 1n, binary: false };
  // Fraction digits past nano precision only decide the rounding up: one non-zero digit stands for all of them.
  const fraction =
    rawFraction.length > MAX_SIGNIFICANT_DIGITS
      ? `${rawFraction.slice(0, MAX_SIGNIFICANT_DIGITS)}${/[1-9]/.test(rawFraction.slice(MAX_SIGNIFICANT_DIGITS)) ? '1' : ''}`
      : rawFraction;
  const digits = BigInt(`${significantWhole}${fraction}` || '0');
  const scale = 10n ** BigInt(fraction.length);
  let numerator: bigint;
  let binary = false;
  const binaryFactor = BINARY_FACTOR[suffix];
  if (binaryFactor !== undefined) {
    numerator = digits * binaryFactor * NANO;
    binary = true;
  } else {
    const exponent = decimalExponent;
    if (exponent === undefined) return undefined;
    const power = exponent + 9;
    numerator = power >= 0 ? digits * 10n ** BigInt(power) : digits;
    if (power < 0) return { nanos: ceilDiv(numerator, scale * 10n ** BigInt(-power)) * (negative ? -1n : 1n), binary };
  }
  const nanos = ceilDiv(numerator, scale);
  return { nanos: negative ? -nanos : nanos, binary };
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * Quantities beyond Go's int64 range are capped at its maximum (resource.ParseQuantity), so digits and exponents
 * past these bounds cannot change the result; bounding them keeps a hostile "1e999999999" from expanding into a
 * billion-digit BigInt.
 */
const MAX_SIGNIFICANT_DIGITS = 40;
const MAX_EXPONENT = 40;
const CAPPED_NANOS = (2n ** 63n - 1n) * NANO;

/** Canonical text of a quantity that decoding accepted; the input itself when it cannot be read. */
export function canonicalQuantity(value: unknown): string {
  const textValue = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const parsed = parse(textValue);
  if (parsed === undefined) return textValue;
  const negative = parsed.nanos < 0n;
  const abs = negative ? -parsed.nanos : parsed.nanos;
  const sign = negative ? '-' : '';
  if (abs === 0n) return '0';
  if (parsed.binary && abs % NANO === 0n) {
    const whole = abs / NANO;
    for (const [suffix, factor] of BINARY_SUFFIXES) if (whole % factor === 0n) return `${sign}${whole / factor}${suffix}`;
    return `${sign}${whole}`;
  }
  for (const [suffix, exponent] of DECIMAL_SUFFIXES) {
    const unit = 10n ** BigInt(exponent + 9);
    if (abs % unit === 0n) return `${sign}${abs / unit}${suffix}`;
  }
  return `${sign}${abs}n`;
}

/**
 * Go's Quantity.Cmp: negative, zero or positive. Doubles order the quantities people write exactly enough, and keep
 * this off BigInt on the create path of every pod.
 */
export function compareQuantities(a: unknown, b: unknown): number {
  if (a === b) return 0;
  const x = quantityValue(a);
  const y = quantityValue(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Whether a quantity is below zero, without parsing it. */
export const isNegativeQuantity = (value: unknown): boolean =>
  typeof value === 'number' ? value < 0 : typeof value === 'string' && value.trimStart().startsWith('-') && quantityValue(value) < 0;

/** The quantity in nano units (0 when unreadable), for whole-number and divisibility checks. */
export function quantityNanos(value: unknown): bigint {
  return parse(typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '0')?.nanos ?? 0n;
}
