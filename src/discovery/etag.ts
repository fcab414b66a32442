/**
 * Cache validation of aggregated discovery responses (R8.10), after apiserver's discovery/aggregated/etag.go:
 * the ETag is the quoted upper-case hex SHA-512 of the JSON document; a request whose If-None-Match equals
 * it exactly is answered 304 Not Modified.
 */

import { createHash } from 'node:crypto';

export function discoveryETag(body: string): string {
  return `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
}

export function isNotModified(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch === etag;
}

/** Headers every aggregated discovery response carries besides Content-Type. */
export function aggregatedDiscoveryCacheHeaders(etag: string): Record<string, string> {
  return { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
}
