import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * How large a request line plus headers may be: Go's net/http with kube-apiserver's MaxHeaderBytes (1 MiB), plus
 * the 4 KiB Go adds on top. Node's own default (16 KiB) refuses the long label selectors and impersonation or
 * bearer headers clients send to the real apiserver.
 */
export const MAX_HEADER_BYTES = 1024 * 1024 + 4096;

/** How long a connection refused at the header stage stays open to read what the client still sends. */
const LINGER_MS = 500;

/**
 * Answers requests Node cannot parse as Go's server does: `431 Request Header Fields Too Large` past
 * MAX_HEADER_BYTES, `400 Bad Request` otherwise, both as plain text with `Connection: close`. The connection is
 * half-closed and kept reading for a moment, so that a client still sending gets the answer instead of a reset.
 */
export function answerClientErrorsAsGo(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    // Go writes the text after the head even for HEAD, which a client then reads as a malformed next answer.
    const head = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.on('data', () => undefined);
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${head ? '' : status}`);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
