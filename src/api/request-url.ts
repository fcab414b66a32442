import { badRequest } from './errors.js';
import { goQuote } from '../util/go-quote.js';

/** The parts of a request URL the API server routes on, as Go's net/http hands them to kube-apiserver. */
export interface RequestUrl {
  /**
   * URL.Path: the percent-decoded path exactly as sent. No "." or ".." segment is resolved and no empty segment
   * dropped (Go's server does neither), so the path authorized and the path served are the path the client sent.
   */
  readonly pathname: string;
  /** URL.Query(): pairs with a ";" or a malformed escape are dropped, as Go drops them. */
  readonly searchParams: URLSearchParams;
}

/** An absolute-form target ("http://host/path"): only its path and query count. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*/;

export function parseRequestUrl(target: string): RequestUrl {
  const origin = target.startsWith('/') ? undefined : ABSOLUTE_FORM.exec(target);
  const rest = origin === undefined || origin === null ? target : target.slice(origin[0].length);
  const question = rest.indexOf('?');
  const rawPath = question < 0 ? rest : rest.slice(0, question);
  const rawQuery = question < 0 ? '' : rest.slice(question + 1);
  const pathname = rawPath.includes('%') ? unescapePath(rawPath) : rawPath;
  return { pathname: pathname === '' ? '/' : pathname, searchParams: parseQuery(rawQuery) };
}

/** url.PathUnescape: every "%" must start a two-digit hex escape; the bytes decode as UTF-8. */
function unescapePath(raw: string): string {
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(raw);
  if (bad !== null) {
    throw badRequest(`parse ${goQuote(raw)}: invalid URL escape ${goQuote(raw.slice(bad.index, bad.index + 3))}`);
  }
  return decodeBytes(raw, false);
}

/**
 * Percent-decodes (and, in a query, turns "+" into a space) byte-wise; invalid UTF-8 becomes U+FFFD. The input is
 * ASCII: Node's parser refuses any other byte in a request target.
 */
function decodeBytes(s: string, plusIsSpace: boolean): string {
  const out = Buffer.allocUnsafe(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      out[n++] = Number.parseInt(s.slice(i + 1, i + 3), 16);
      i += 2;
    } else {
      out[n++] = plusIsSpace && c === 0x2b ? 0x20 : c;
    }
  }
  return out.toString('utf8', 0, n);
}

const QUERY_ESCAPE_OK = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;

/**
 * url.ParseQuery as URL.Query() uses it: "&"-separated pairs, a pair containing ";" dropped whole, a pair whose
 * key or value has a malformed escape dropped, "+" a space. URLSearchParams would keep both kinds of pairs.
 */
export function parseQuery(raw: string): URLSearchParams {
  // The common query has neither: URLSearchParams then splits and decodes it exactly as Go does.
  if (!raw.includes('%') && !raw.includes(';')) return new URLSearchParams(raw.startsWith('?') ? `?${raw}` : raw);
  const params = new URLSearchParams();
  for (const pair of raw.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (!QUERY_ESCAPE_OK.test(key) || !QUERY_ESCAPE_OK.test(value)) continue;
    params.append(decodeBytes(key, true), decodeBytes(value, true));
  }
  return params;
}
