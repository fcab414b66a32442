import type { IncomingMessage } from 'node:http';
import { requestEntityTooLarge, StatusError } from '../api/errors.js';

/** kube-apiserver's request body limit (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/**
 * How much of an oversized body is read (and thrown away) before the 413 goes out. Answering while the client is
 * still sending, then closing, makes the kernel reset the connection over the unread bytes, and the client often
 * loses the answer with them; once the body has been read the close is clean. A body larger still gets its 413
 * at this point, with that risk, rather than tying the connection up any longer.
 */
export const MAX_DISCARDED_BODY_BYTES = 64 * 1024 * 1024;

/**
 * 413, with `Connection: close`: like Go's server after a handler gave up on a body it had not read to the end, the
 * connection is not reused.
 */
function tooLarge(limitBytes: number): StatusError {
  const err = requestEntityTooLarge(limitBytes);
  return new StatusError(err.code, err.reason, err.message, err.details, { Connection: 'close' });
}

/**
 * The whole request body, at most `limitBytes` of it (limitedReadBody): a larger one — declared by Content-Length
 * or found while streaming — is refused with 413 `Request entity too large: limit is <n>`. Nothing past the limit
 * is kept; the rest is read and dropped (up to MAX_DISCARDED_BODY_BYTES) so the client reliably reads the 413.
 */
export function readLimitedBody(req: IncomingMessage, limitBytes: number = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  // Plain events rather than the async iterator: this runs on every write request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = declared > limitBytes;
    const refuse = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      reject(tooLarge(limitBytes));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (!refused && size > limitBytes) {
        refused = true;
        chunks.length = 0;
      }
      if (refused) {
        if (size > MAX_DISCARDED_BODY_BYTES) refuse();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      if (refused) reject(tooLarge(limitBytes));
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    if (refused && declared > MAX_DISCARDED_BODY_BYTES) {
      refuse();
      return;
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}
