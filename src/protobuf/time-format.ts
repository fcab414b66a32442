import { WireFormatError } from './wire.js';

/**
 * metav1.Time renders as RFC 3339 in UTC with whole seconds, metav1.MicroTime with six fraction digits; Go's
 * encoder refuses years it cannot write in four digits.
 */
export function formatTimestamp(seconds: bigint, nanos: number, fractionDigits: 0 | 6): string {
  const millis = Number(seconds) * 1000;
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  if (!Number.isFinite(millis) || Number.isNaN(date.getTime()) || year < 0 || year > 9999) {
    throw new WireFormatError('Time.MarshalJSON: year outside of range [0,9999]');
  }
  const whole = date.toISOString().slice(0, 19);
  if (fractionDigits === 0) return `${whole}Z`;
  return `${whole}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/** Parses an RFC 3339 timestamp into Unix seconds and nanoseconds. */
export function parseTimestamp(text: string): { seconds: bigint; nanos: number } {
  const match = RFC3339.exec(text);
  const millis = match === null ? Number.NaN : Date.parse(`${match[1]}${(match[3] ?? 'Z').toUpperCase()}`);
  if (match === null || Number.isNaN(millis)) throw new Error(`cannot parse ${JSON.stringify(text)} as an RFC 3339 time`);
  return { seconds: BigInt(Math.floor(millis / 1000)), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}
