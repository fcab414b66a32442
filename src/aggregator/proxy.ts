/**
 * Forwarding one request to an aggregated API server (kube-aggregator handler_proxy.go): same method, path and
 * query, body and response streamed both ways (watches included, for as long as both sides stay), identity passed
 * as requestheader headers over the front-proxy TLS connection. Failures are answered as the aggregator answers
 * them: a plain-text 503 — "service unavailable" while the APIService is not Available or its Service has no usable
 * endpoint, the transport error's text when the backend cannot be reached (R8.14).
 */

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { UserInfo } from '../api/user.js';
import { type BackendTarget, openBackendRequest, shouldRetry } from './backend-transport.js';
import { hostPort } from './endpoint-resolver.js';
import { forwardedRequestHeaders, forwardedResponseHeaders } from './identity-headers.js';
import { describeNetworkError } from './network-errors.js';
import { forwardedPath } from './forwarded-path.js';
import type { RequestUrl } from '../api/request-url.js';

export const SERVICE_UNAVAILABLE_TEXT = 'service unavailable';

/** Go's http.Error: the text plus a newline, as text/plain, not sniffable. */
export function sendProxyError(res: ServerResponse, code: number, text: string): void {
  const body = `${text}\n`;
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function withForwardedFor(req: IncomingMessage, headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const client = req.socket.remoteAddress;
  if (client === undefined) return headers;
  const prior = req.headers['x-forwarded-for'];
  return { ...headers, 'x-forwarded-for': prior === undefined ? client : `${prior}, ${client}` };
}

/**
 * Proxies `req` (`url`, as routed and authorized) to `target` as `user`; `target` undefined answers the aggregator's 503. Resolves once the exchange
 * is over (response finished, or either side gone).
 */
export function proxyRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestUrl,
  user: UserInfo,
  target: BackendTarget | undefined,
): Promise<void> {
  if (target === undefined) {
    sendProxyError(res, 503, SERVICE_UNAVAILABLE_TEXT);
    return Promise.resolve();
  }
  const method = req.method ?? 'GET';
  const spec = { method, path: forwardedPath(url), headers: withForwardedFor(req, forwardedRequestHeaders(req.headers, user)) };
  return new Promise((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      resolve();
    };
    const attempt = (retried: boolean): void => {
      const upstream = openBackendRequest(target, spec);
      upstream.on('error', (err) => {
        if (!retried && !res.headersSent && shouldRetry(upstream, method, err)) {
          attempt(true);
          return;
        }
        if (!res.headersSent) sendProxyError(res, 503, describeNetworkError(err, hostPort(target.endpoint), target.serverName));
        else res.destroy();
        finish();
      });
      upstream.on('response', (backend) => {
        res.writeHead(backend.statusCode ?? 502, backend.statusMessage, forwardedResponseHeaders(backend.headers));
        // A watch answers with headers long before its first event; the client should see them at once.
        res.flushHeaders();
        backend.on('error', () => res.destroy());
        backend.on('aborted', () => res.destroy());
        backend.pipe(res);
        backend.on('end', finish);
      });
      // The client went away (or the response ended): stop talking to the backend.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
        finish();
      });
      if (retried) upstream.end();
      else req.pipe(upstream);
    };
    attempt(false);
  });
}
