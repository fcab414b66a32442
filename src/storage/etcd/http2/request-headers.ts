/**
 * The header block of a gRPC request, HPACK-encoded (RFC 7541) without touching the peer's dynamic table:
 * indexed static fields where the static table holds the whole field, otherwise literals without indexing. The
 * block depends only on the connection and the method's path, so it is built once per path and reused.
 */

/** Static table indices (RFC 7541 Appendix A) of the fields and names a gRPC request uses. */
const STATIC_AUTHORITY_NAME = 1;
const STATIC_METHOD_POST = 3;
const STATIC_PATH_NAME = 4;
const STATIC_SCHEME_HTTP = 6;
const STATIC_SCHEME_HTTPS = 7;
const STATIC_CONTENT_TYPE_NAME = 31;

const INDEXED = 0x80;
const LITERAL_WITHOUT_INDEXING = 0x00;

export function encodeRequestHeaders(scheme: 'http' | 'https', authority: string, path: string): Buffer {
  const out: number[] = [];
  pushInteger(out, STATIC_METHOD_POST, 7, INDEXED);
  pushInteger(out, scheme === 'https' ? STATIC_SCHEME_HTTPS : STATIC_SCHEME_HTTP, 7, INDEXED);
  pushLiteral(out, STATIC_PATH_NAME, path);
  pushLiteral(out, STATIC_AUTHORITY_NAME, authority);
  pushLiteral(out, STATIC_CONTENT_TYPE_NAME, 'application/grpc');
  // `te: trailers` tells proxies the client understands trailers, where gRPC puts its status.
  pushLiteral(out, 'te', 'trailers');
  // etcd's "require leader" metadata: a member without a leader refuses the call at once ("etcdserver: no
  // leader", before anything is proposed, so it is safe to send elsewhere) instead of waiting out its own
  // timeout, and cancels watches when it loses its leader, so they move to a member that has one.
  pushLiteral(out, 'hasleader', 'true');
  return Buffer.from(out);
}

/** A literal without indexing, its name given by static index or spelled out. */
function pushLiteral(out: number[], name: number | string, value: string): void {
  if (typeof name === 'number') {
    pushInteger(out, name, 4, LITERAL_WITHOUT_INDEXING);
  } else {
    out.push(LITERAL_WITHOUT_INDEXING);
    pushString(out, name);
  }
  pushString(out, value);
}

/** A string literal without Huffman coding: the requests' strings are few and short, and built once. */
function pushString(out: number[], value: string): void {
  const bytes = Buffer.from(value, 'latin1');
  pushInteger(out, bytes.byteLength, 7, 0);
  for (const byte of bytes) out.push(byte);
}

/** An integer with an N-bit prefix (RFC 7541 section 5.1), the prefix's byte carrying `flags` above it. */
function pushInteger(out: number[], value: number, prefixBits: number, flags: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(flags | value);
    return;
  }
  out.push(flags | max);
  let rest = value - max;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}
