import type { ServerResponse } from 'node:http';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later.';

/**
 * The in-flight filters' 429: not a Status but Go's http.Error text, with `Retry-After: 1` (clients such as
 * client-go turn it into a TooManyRequests error and retry after that second).
 */
export function sendTooManyRequests(res: ServerResponse): void {
  const body = `${TOO_MANY_REQUESTS_MESSAGE}\n`;
  res.writeHead(429, {
    'Retry-After': '1',
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
