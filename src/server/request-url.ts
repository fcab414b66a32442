/** The parts of a request URL the API server routes on. */
export interface RequestUrl {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/**
 * A path of plain segments: none empty, none starting with a dot (so no "." or ".." to resolve), and no character
 * the URL parser would escape or rewrite. For such a path the WHATWG parser's pathname is the path itself.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;
/** Printable ASCII without "#": whatever the URL parser would escape here, URLSearchParams decodes back the same. */
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/;

/**
 * Splits a request target into path and query parameters as `new URL(target, base)` does, without running the
 * full URL parser for the plain paths API clients send; anything else goes through the parser.
 */
export function parseRequestUrl(target: string): RequestUrl {
  const question = target.indexOf('?');
  const path = question < 0 ? target : target.slice(0, question);
  // With its "?", which URLSearchParams strips (once): a query may itself start with "?".
  const query = question < 0 ? '' : target.slice(question);
  if (PLAIN_PATH.test(path) && PLAIN_QUERY.test(query)) return { pathname: path === '' ? '/' : path, searchParams: new URLSearchParams(query) };
  return new URL(target, 'http://localhost');
}
