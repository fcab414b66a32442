import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { StreamNotProcessedError } from './stream.js';

/** For https:// members: the CA to verify them with (default: Node's roots), and the client certificate and key. */
export interface TlsMaterial {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/**
 * The socket under an HTTP/2 connection to `url`: TLS with ALPN "h2" for https (the member's certificate is
 * checked against the URL's host name or IP address), plain TCP for http. Unreferenced: the connection refs it
 * while streams are open. `refused` hears of a TLS peer that does not speak HTTP/2.
 */
export function openSocket(
  url: URL,
  tls: TlsMaterial | undefined,
  keepaliveMs: number,
  refused: (error: Error) => void,
): Socket | TLSSocket {
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const socket = secure
    ? connectTls({
        host,
        port,
        ALPNProtocols: ['h2'],
        servername: isIP(host) === 0 ? host : undefined,
        ca: tls?.ca,
        cert: tls?.cert,
        key: tls?.key,
      })
    : connectTcp({ host, port });
  socket.setNoDelay(true);
  // The kernel's probes find a dead peer of a connection without streams, which PINGs do not cover.
  socket.setKeepAlive(true, keepaliveMs);
  socket.unref();
  if (secure) {
    // First listener: the connection's own, added later, sees the error with the member and the cause named.
    socket.on('error', (error: Error) => {
      error.message = describeTlsFailure(url.origin, error);
    });
    socket.once('secureConnect', () => {
      if ((socket as TLSSocket).alpnProtocol !== 'h2')
        refused(new StreamNotProcessedError(`${url.origin} does not speak HTTP/2 over TLS (ALPN)`));
    });
  }
  return socket;
}

/**
 * OpenSSL's words for the usual mistakes, with the member and the likely cause: a member certificate the CA does
 * not verify, and a client certificate the member refuses (missing, or from another CA), which TLS 1.3 reports
 * only after the handshake, as an alert.
 */
function describeTlsFailure(origin: string, error: Error & { code?: string }): string {
  const message = error.message;
  if (/alert (bad certificate|certificate required|unknown ca)/.test(message)) {
    return `etcd at ${origin} refused the client certificate (tls: ${message.replace(/^.*?(alert [a-z ]+).*$/s, '$1')})`;
  }
  if (error.code?.startsWith('ERR_TLS_') || /certificate|self.signed/i.test(message)) {
    return `TLS handshake with etcd at ${origin} failed: x509: ${message}`;
  }
  return message;
}
