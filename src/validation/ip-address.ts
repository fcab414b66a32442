import { type FieldError, fieldError } from '../api/errors.js';
import { parseCidr } from './network.js';

/**
 * IP address checks with apimachinery's and core validation's messages (validation.IsValidIP, IsValidCIDR,
 * ValidateNonSpecialIP), as Services, Endpoints, EndpointSlices and Nodes use them.
 */

const IPV4_PART = /^[0-9]{1,3}$/;

/** The four bytes of a dotted quad; leading zeros are accepted, as Go's ParseIPSloppy accepts them. */
function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return bytes;
}

function hextets(text: string): number[] | undefined {
  if (text === '') return [];
  const groups = text.split(':');
  const out: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (i === groups.length - 1 && group.includes('.')) {
      const v4 = ipv4Bytes(group);
      if (v4 === undefined) return undefined;
      out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    out.push(Number.parseInt(group, 16));
  }
  return out;
}

/** The 16 bytes of an IPv6 address (Go's ParseIP: no zones, at most one "::"). */
function ipv6Bytes(text: string): number[] | undefined {
  if (!text.includes(':') || text.includes('%')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = hextets(halves[0] ?? '');
  const tail = halves.length === 2 ? hextets(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const words = [...head, ...new Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

export interface ParsedIp {
  /** 4 bytes for IPv4 (IPv4-mapped IPv6 included, as Go's To4 sees them), 16 for IPv6. */
  readonly bytes: readonly number[];
  readonly family: 'IPv4' | 'IPv6';
}

/** netutils.ParseIPSloppy, or undefined when Go would refuse the text. */
export function parseIp(text: string): ParsedIp | undefined {
  const v4 = ipv4Bytes(text);
  if (v4 !== undefined) return { bytes: v4, family: 'IPv4' };
  const v6 = ipv6Bytes(text);
  if (v6 === undefined) return undefined;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 255 && v6[11] === 255;
  return mapped ? { bytes: v6.slice(12), family: 'IPv4' } : { bytes: v6, family: 'IPv6' };
}

/** netutils.IsIPv6String: a valid address that is not IPv4 (nor IPv4-mapped). */
export const isIPv6String = (text: string): boolean => parseIp(text)?.family === 'IPv6';

/** validation.IsValidIP. */
export function validateIp(field: string, value: string): FieldError[] {
  return parseIp(value) === undefined
    ? [fieldError.invalid(field, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')]
    : [];
}

/** validation.IsValidCIDR. */
export function validateCidr(field: string, value: string): FieldError[] {
  return parseCidr(value) === undefined
    ? [fieldError.invalid(field, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')]
    : [];
}

/**
 * ValidateNonSpecialIP: unspecified and loopback addresses make no sense as endpoints, and link-local ones are
 * node-centric (metadata services), so Endpoints, EndpointSlices and external IPs refuse them.
 */
export function validateNonSpecialIp(value: string, field: string, options: { allowLoopback?: boolean } = {}): FieldError[] {
  const ip = parseIp(value);
  if (ip === undefined) return [fieldError.invalid(field, value, 'must be a valid IP address')];
  const b = ip.bytes;
  const errs: FieldError[] = [];
  const v4 = ip.family === 'IPv4';
  if (b.every((x) => x === 0)) errs.push(fieldError.invalid(field, value, `may not be unspecified (${value})`));
  const loopback = v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback && options.allowLoopback !== true)
    errs.push(fieldError.invalid(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocal = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80;
  if (linkLocal) errs.push(fieldError.invalid(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const linkLocalMulticast = v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && ((b[1] ?? 0) & 0x0f) === 0x02;
  if (linkLocalMulticast) {
    errs.push(fieldError.invalid(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}
