import type { IncomingMessage } from 'node:http';
import { requestEntityTooLarge } from '../api/errors.js';

/** kube-apiserver's request body limit (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/**
 * How much of an oversized body is read and thrown away after its 413, and for how long. Closing a connection over
 * bytes the client is still sending makes the kernel reset it, and the client often loses the answer with them; a
 * drained connection closes cleanly (or serves the client's next request). Past either bound it is cut.
 */
export const MAX_DISCARDED_BODY_BYTES = 64 * 1024 * 1024;
export const MAX_DISCARD_MS = 30_000;

/**
 * The whole request body, at most `limitBytes` of it (limitedReadBody): a larger one — declared by Content-Length
 * or found while streaming — is refused with 413 `Request entity too large: limit is <n>` at once, so a client that
 * declares more than it sends is not left waiting; nothing past the limit is kept.
 */
export function readLimitedBody(req: IncomingMessage, limitBytes: number = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  // Plain events rather than the async iterator: this runs on every write request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = (): void => {
      chunks.length = 0;
      req.off('data', onData);
      req.off('end', onEnd);
      discardRest(req);
      reject(requestEntityTooLarge(limitBytes));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) refuse();
      else chunks.push(chunk);
    };
    const onEnd = (): void => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    req.on('error', reject);
    if (declared > limitBytes) {
      refuse();
      return;
    }
    req.on('data', onData);
    req.on('end', onEnd);
  });
}

/** Reads and drops what is left of a refused body, within MAX_DISCARDED_BODY_BYTES and MAX_DISCARD_MS. */
function discardRest(req: IncomingMessage): void {
  if (req.readableEnded) return;
  let discarded = 0;
  const cut = (): void => {
    req.socket.destroy();
  };
  const timer = setTimeout(cut, MAX_DISCARD_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BODY_BYTES) cut();
  });
  req.on('close', () => clearTimeout(timer));
  req.resume();
}
