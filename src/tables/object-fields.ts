import { isObject } from '../api/types.js';

/** Lenient readers for untyped wire objects: absent or mistyped fields read as Go's zero values. */

export function get(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

export { text } from '../api/json-fields.js';

export const integer = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0);

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) out[key] = typeof entry === 'string' ? entry : '';
  return out;
}

export const keyCount = (value: unknown): number => (isObject(value) ? Object.keys(value).length : 0);

/** Go's zero time.Time (0001-01-01T00:00:00Z): it serializes like any time but counts as unset. */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** Milliseconds since the epoch, or undefined for an absent, zero or unparseable timestamp. */
export function timestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) || parsed === GO_ZERO_TIME ? undefined : parsed;
}
