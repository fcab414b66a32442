import { quantityNanos } from '../../validation/quantity-text.js';

/**
 * Exact resource.Quantity arithmetic for quota accounting: values are kept as integers of nano-units, so sums of
 * "100m" and "1.5Gi" never drift, and printed in Go's canonical form (resource.Quantity.String) in the format of
 * the first operand, as quota.Add keeps it: binary suffixes for a BinarySI quantity whose value allows them,
 * decimal ones otherwise.
 */

export type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nano: bigint;
  readonly format: Format;
}

const NANO = 1_000_000_000n;
const BINARY: Readonly<Record<string, bigint>> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL_EXPONENTS: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const SUFFIX = /^[+-]?\d*(?:\.\d*)?(.*)$/;

export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

/**
 * Parses a quantity that validation already accepted. The value comes from the one bounded parser
 * (validation/quantity-text.ts: rounded up to nano-units as Go rounds, capped as Go caps, so a hostile "1e999999999"
 * never becomes a billion-digit BigInt); the format from the suffix, as Go keeps it.
 */
export function parseQuantity(value: unknown): Quantity {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '0';
  const suffix = SUFFIX.exec(text)?.[1] ?? '';
  const format: Format = suffix in BINARY ? 'BinarySI' : suffix in DECIMAL_EXPONENTS ? 'DecimalSI' : 'DecimalExponent';
  return { nano: quantityNanos(text), format };
}

export function add(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n && a.format === 'DecimalSI' ? b.format : a.format };
}

export function subtract(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.format };
}

export function compare(a: Quantity, b: Quantity): number {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** Go's canonical text: the largest suffix that keeps the value an integer. */
export function formatQuantity(q: Quantity): string {
  const negative = q.nano < 0n;
  const abs = negative ? -q.nano : q.nano;
  const sign = negative ? '-' : '';
  if (abs === 0n) return '0';
  if (q.format === 'BinarySI' && abs % NANO === 0n) {
    const units = abs / NANO;
    if (units >= 1024n) {
      for (const suffix of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki']) {
        const factor = BINARY[suffix] as bigint;
        if (units % factor === 0n) return `${sign}${units / factor}${suffix}`;
      }
    }
    return `${sign}${units}`;
  }
  // Decimal: from nano up, the largest power of 1000 dividing the value.
  const suffixes = ['n', 'u', 'm', '', 'k', 'M', 'G', 'T', 'P', 'E'];
  let value = abs;
  let index = 0;
  while (index < suffixes.length - 1 && value % 1000n === 0n) {
    value /= 1000n;
    index++;
  }
  return `${sign}${value}${suffixes[index]}`;
}

/** A quantity counting objects. */
export function count(n: number): Quantity {
  return { nano: BigInt(n) * NANO, format: 'DecimalSI' };
}
