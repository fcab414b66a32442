import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../api/errors.js';
import type { HttpTransport } from '../client/http-transport.js';

/** How long one proxied request may take; watches carry their own timeoutSeconds, bounded by the same figure. */
export const PROXY_TIMEOUT_MS = 10 * 60_000;

/** Whether a path is one the proxy forwards: the REST API only, never another host or another part of the server. */
export function isProxiedPath(pathname: string): boolean {
  return pathname === '/api' || pathname === '/apis' || pathname.startsWith('/api/') || pathname.startsWith('/apis/');
}

export function writeStatus(res: ServerResponse, err: StatusError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(err.code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(err.toStatus()));
}

/**
 * Forwards a read (GET) to the cluster with the kubeconfig's credentials, as `kubectl proxy` does. Writes are
 * refused: the web page only reads, and a proxy that writes with the user's credentials would let any page the
 * browser opens change the cluster through it.
 */
export async function proxyRead(transport: HttpTransport, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (req.method !== 'GET') {
    writeStatus(res, new StatusError(405, 'MethodNotAllowed', `the cascade ui proxy only reads: ${req.method ?? ''} is not allowed`));
    return;
  }
  let upstream: Awaited<ReturnType<HttpTransport['stream']>>;
  try {
    upstream = await transport.stream({
      method: 'GET',
      path: url.pathname,
      query: url.searchParams,
      accept: req.headers.accept ?? 'application/json',
    });
  } catch (err) {
    writeStatus(
      res,
      err instanceof StatusError ? err : new StatusError(503, 'ServiceUnavailable', `the cluster is unreachable: ${String(err)}`),
    );
    return;
  }
  const timer = setTimeout(() => upstream.abort(), PROXY_TIMEOUT_MS);
  res.once('close', () => {
    clearTimeout(timer);
    upstream.abort();
  });
  res.writeHead(upstream.message.statusCode ?? 200, { 'Content-Type': upstream.message.headers['content-type'] ?? 'application/json' });
  upstream.message.on('error', () => res.destroy());
  upstream.message.pipe(res);
}
