import { GoLiteral } from '../../api/errors.js';
import { goQuote } from '../../util/go-quote.js';

/**
 * A resource.Quantity as field.Error prints it: Quantity's String has a pointer receiver, so after the error
 * dereferences the pointer Go falls back to %#v of the struct. ParseQuantity keeps the text in `s` only when it is
 * already canonical (a scale that is a multiple of 3 without trailing "000" or a leading zero; binary suffixes when
 * the digits are not a multiple of 8), so that field differs between "-1" and "-1.5".
 */

const DECIMAL_EXPONENTS: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENTS: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function literal(value: bigint, scale: number, cached: string, format: string): GoLiteral {
  return new GoLiteral(
    `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${goQuote(cached)}, Format:${goQuote(format)}}`,
  );
}

export function quantityLiteral(value: unknown): GoLiteral {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (text === '0') return literal(0n, 0, '0', 'DecimalSI');
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  const sign = match?.[1] === '-' ? -1n : 1n;
  const whole = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  const suffix = match?.[4] ?? '';
  const shifted = (whole + fraction).replace(/^0+(?=\d)/, '') || '0';
  const binary = BINARY_EXPONENTS[suffix];
  if (binary !== undefined && fraction === '') {
    const digits = BigInt(shifted);
    const cached = (digits & 7n) !== 0n ? text : '';
    return literal(sign * (digits << BigInt(binary)), 0, cached, 'BinarySI');
  }
  const exponentForm = /^[eE]([+-]?\d+)$/.exec(suffix);
  const exponent = exponentForm ? Number(exponentForm[1]) : DECIMAL_EXPONENTS[suffix];
  if (exponent === undefined) return new GoLiteral(goQuote(text));
  const scale = exponent - fraction.length;
  const raw = whole + fraction;
  const canonical = scale % 3 === 0 && !raw.endsWith('000') && raw[0] !== '0';
  return literal(sign * BigInt(shifted), scale, canonical ? text : '', exponentForm ? 'DecimalExponent' : 'DecimalSI');
}
