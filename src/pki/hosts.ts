import { isIP } from 'node:net';

/** The names a serving certificate is issued for, split the way subjectAltName stores them. */
export interface SubjectAltNames {
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
}

export type Host = { readonly kind: 'dns'; readonly name: string } | { readonly kind: 'ip'; readonly address: string };

/**
 * Accepts "example.com", "10.0.0.1", "::1" or "[::1]". IPv6 addresses come back in the
 * compressed canonical form (IPv4-mapped ones as hex) so equal addresses compare equal.
 */
export function parseHost(raw: string): Host {
  const trimmed = raw.trim();
  const unbracketed = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  if (unbracketed === '') throw new Error('an empty host name cannot be put in a certificate');
  const family = isIP(unbracketed);
  if (family === 4) return { kind: 'ip', address: unbracketed };
  if (family === 6) {
    if (unbracketed.includes('%')) throw new Error(`IPv6 address "${raw}" has a zone index, which a certificate cannot name`);
    return { kind: 'ip', address: new URL(`http://[${unbracketed}]/`).hostname.slice(1, -1) };
  }
  if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(unbracketed)) {
    throw new Error(`"${raw}" is neither an IP address nor a valid DNS name`);
  }
  return { kind: 'dns', name: unbracketed.toLowerCase().replace(/\.$/, '') };
}

export function subjectAltNamesFor(hosts: readonly string[]): SubjectAltNames {
  const dnsNames = new Set<string>();
  const ipAddresses = new Set<string>();
  for (const raw of hosts) {
    const host = parseHost(raw);
    if (host.kind === 'dns') dnsNames.add(host.name);
    else ipAddresses.add(host.address);
  }
  return { dnsNames: [...dnsNames], ipAddresses: [...ipAddresses] };
}

/** 0.0.0.0 and :: mean "every interface" to a listener; no client dials them, so they are not identities. */
export function isUnspecifiedAddress(host: Host): boolean {
  return host.kind === 'ip' && (host.address === '0.0.0.0' || host.address === '::');
}
