import { isJsonMap } from '../util/json-value.js';

/**
 * Go's fmt rendering of decoded JSON values. Kubernetes embeds these renderings in strategic-merge-patch error
 * messages ("map: map[image:nginx] does not contain declared merge key: name"), so clients see Go syntax.
 * Integers print as Go int64, other numbers as float64 (%v uses exponent form outside [1e-4, 1e6)).
 */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (isJsonMap(value)) {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((k) => `${k}:${goValue(value[k])}`).join(' ')}]`;
  }
  return String(value);
}

function goNumber(n: number): string {
  if (Number.isInteger(n)) return n.toFixed(0);
  const [mantissa = '', exponentText = '0'] = n.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(n);
}

/** The Go type of a decoded JSON value (reflect.TypeOf), as printed by %s. */
export function goTypeOf(value: unknown): string {
  if (value === null || value === undefined) return '%!s(<nil>)';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's %s verb applied to an arbitrary decoded value: strings print bare, other scalars as `%!s(type=value)`. */
export function goStringVerb(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '%!s(<nil>)';
  if (typeof value === 'number' || typeof value === 'boolean') return `%!s(${goTypeOf(value)}=${goValue(value)})`;
  return goValue(value);
}
