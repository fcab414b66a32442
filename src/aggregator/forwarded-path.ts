import type { RequestUrl } from '../api/request-url.js';

/**
 * The request target the aggregator sends its backend (handler_proxy.go): the path exactly as the request was
 * routed and authorized (URL.Path: decoded, never resolved, so "x/../.." reaches the backend as sent), re-escaped
 * as Go escapes a path, and the query re-encoded with its keys sorted (url.Values.Encode).
 */
export function forwardedPath(url: RequestUrl): string {
  const path = escapePath(url.pathname);
  const query = encodeQuery(url.searchParams);
  return query === '' ? path : `${path}?${query}`;
}

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;
/** Reserved characters a path keeps as they are; "?" is the one it must escape. */
const PATH_KEEPS = new Set(['$', '&', '+', ',', '/', ':', ';', '=', '@']);

function escapeBytes(s: string, keep: (ch: string) => boolean, spaceAsPlus: boolean): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x80 && (UNRESERVED.test(ch) || keep(ch))) out += ch;
    else if (spaceAsPlus && byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** url.URL.EscapedPath for a path with no RawPath. */
export function escapePath(path: string): string {
  return escapeBytes(path, (ch) => PATH_KEEPS.has(ch), false);
}

/** url.QueryEscape. */
function escapeQueryPart(s: string): string {
  return escapeBytes(s, () => false, true);
}

/** url.Values.Encode: keys in byte order, each key's values in the order sent. */
export function encodeQuery(params: URLSearchParams): string {
  const byKey = new Map<string, string[]>();
  for (const [key, value] of params) {
    const values = byKey.get(key);
    if (values === undefined) byKey.set(key, [value]);
    else values.push(value);
  }
  const keys = [...byKey.keys()].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  const pairs: string[] = [];
  for (const key of keys) {
    const escapedKey = escapeQueryPart(key);
    for (const value of byKey.get(key) as string[]) pairs.push(`${escapedKey}=${escapeQueryPart(value)}`);
  }
  return pairs.join('&');
}
