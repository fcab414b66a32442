import { BlockList, isIP } from 'node:net';
import { type FieldError, fieldError } from '../api/errors.js';
import { isDns1123Subdomain } from './names.js';

/**
 * Port, host and CIDR checks with apimachinery's messages (pkg/util/validation), for the kinds that name network
 * endpoints (Ingress, NetworkPolicy).
 */

const DNS1123_SUBDOMAIN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_SUBDOMAIN = `\\*\\.${DNS1123_SUBDOMAIN}`;
const wildcardRe = new RegExp(`^${WILDCARD_SUBDOMAIN}$`);
const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${HTTP_PATH}$`);
const portNameCharsRe = /^[-a-z0-9]+$/;
const portNameLetterRe = /[a-z]/;

/** IsValidPortNum: 1–65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** IsValidPortName: an IANA service name (lower case, at most 15 characters, at least one letter). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!portNameCharsRe.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!portNameLetterRe.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** IsWildcardDNS1123Subdomain: "*." followed by a DNS subdomain. */
export function isWildcardDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!wildcardRe.test(value)) {
    errs.push(
      "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character " +
        `(e.g. '*.example.com', regex used for validation is '${WILDCARD_SUBDOMAIN}')`,
    );
  }
  return errs;
}

/** IsDomainPrefixedPath: "<DNS subdomain>/<HTTP path>", as IngressClass controllers are named. */
export function isDomainPrefixedPath(field: string, value: string): FieldError[] {
  if (value === '') return [fieldError.required(field)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (host === '' || path === '') return [fieldError.invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDns1123Subdomain(host).map((msg) => fieldError.invalid(field, host, msg));
  if (!httpPathRe.test(path))
    return [...errs, fieldError.invalid(field, path, `Invalid path (regex used for validation is '${HTTP_PATH}')`)];
  return errs;
}

/** Whether Go's ParseIPSloppy accepts the text as an IP address. */
export const isIPAddress = (value: string): boolean => isIP(value) !== 0;

export interface Cidr {
  readonly address: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly prefix: number;
}

/** ParseCIDR: "<ip>/<prefix length>", or undefined when Go would refuse it. */
export function parseCidr(value: string): Cidr | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const address = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  const version = isIP(address);
  if (version === 0 || !/^[0-9]{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > (version === 4 ? 32 : 128)) return undefined;
  return { address, family: version === 4 ? 'ipv4' : 'ipv6', prefix };
}

/** Whether `inner` is a strictly smaller network inside `outer` (an IPBlock's except entries). */
export function isStrictSubnet(inner: Cidr, outer: Cidr): boolean {
  if (inner.family !== outer.family || inner.prefix <= outer.prefix) return false;
  const block = new BlockList();
  block.addSubnet(outer.address, outer.prefix, outer.family);
  return block.check(inner.address, inner.family);
}
