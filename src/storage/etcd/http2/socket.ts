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
export function openSocket(url: URL, tls: TlsMaterial | undefined, keepaliveMs: number, refused: (error: Error) => void): Socket | TLSSocket {
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
    socket.once('secureConnect', () => {
      if ((socket as TLSSocket).alpnProtocol !== 'h2') refused(new StreamNotProcessedError(`${url.origin} does not speak HTTP/2 over TLS (ALPN)`));
    });
  }
  return socket;
}
