/**
 * Node's connection and TLS errors in the words Go's net/http and crypto/tls use, so the APIService messages and the
 * proxy's 503 bodies read as kube-apiserver's do (e.g. "dial tcp 10.0.0.1:443: connect: connection refused").
 */

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
]);

/** The client-side timeout a request of ours ran into. */
export class RequestTimeoutError extends Error {
  constructor() {
    super('context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
    this.name = 'RequestTimeoutError';
  }
}

/** What went wrong talking to `address` ("ip:port"), without Go's `Get "<url>": ` prefix. */
export function describeNetworkError(err: unknown, address: string, serverName: string): string {
  if (err instanceof RequestTimeoutError) return err.message;
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ECONNREFUSED') return `dial tcp ${address}: connect: connection refused`;
  if (code === 'EHOSTUNREACH') return `dial tcp ${address}: connect: no route to host`;
  if (code === 'ENETUNREACH') return `dial tcp ${address}: connect: network is unreachable`;
  if (code === 'ETIMEDOUT') return `dial tcp ${address}: i/o timeout`;
  if (code === 'ECONNRESET') return `read tcp ${address}: read: connection reset by peer`;
  if (UNKNOWN_AUTHORITY.has(code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: x509: certificate is not valid for ${serverName}`;
  if (message === 'socket hang up') return 'EOF';
  return message;
}
