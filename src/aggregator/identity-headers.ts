/**
 * Request headers on the way to an aggregated API server: the user's identity as requestheader authentication
 * reads it (client-go transport.SetAuthProxyHeaders), without the client's own credentials, impersonation
 * requests or hop-by-hop headers.
 */

import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/user.js';

/** RFC 7230 hop-by-hop headers, which a proxy never forwards (Go's httputil.ReverseProxy list). */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Characters Go keeps as they are in an HTTP header name (net/http's token table). */
const HEADER_NAME_CHAR = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** Extra keys may hold any byte; everything that is not a header token character, and '%', is percent-encoded. */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ch !== '%' && HEADER_NAME_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function isIdentityHeader(name: string): boolean {
  return name === 'x-remote-user' || name === 'x-remote-uid' || name === 'x-remote-group' || name.startsWith('x-remote-extra-');
}

/** Headers naming the user as X-Remote-User, one X-Remote-Group per group and X-Remote-Extra-<key> per extra value. */
export function identityHeaders(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'X-Remote-User': user.name };
  if (user.groups.length > 0) headers['X-Remote-Group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) headers[`X-Remote-Extra-${escapeExtraKey(key)}`] = [...values];
  }
  return headers;
}

/** Headers without the hop-by-hop ones, including those the Connection header names. */
function withoutHopByHop(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(
    String(incoming.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
  );
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) headers[name] = value;
  }
  return headers;
}

/**
 * The client's headers as forwarded: hop-by-hop ones dropped, its credentials and impersonation headers removed
 * (the front end consumed them), any identity headers it sent replaced by the authenticated user's.
 */
export function forwardedRequestHeaders(incoming: IncomingHttpHeaders, user: UserInfo): OutgoingHttpHeaders {
  const headers = withoutHopByHop(incoming);
  for (const name of Object.keys(headers)) {
    if (name === 'authorization' || name.startsWith('impersonate-') || isIdentityHeader(name)) delete headers[name];
  }
  return { ...headers, ...identityHeaders(user) };
}

/** The backend's response headers as returned to the client. */
export function forwardedResponseHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  return withoutHopByHop(incoming);
}
