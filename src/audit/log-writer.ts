import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';

/**
 * The log backend of `--audit-log-path`: one JSON event per line, appended to the file (or written to stdout for
 * `-`). Writes are asynchronous; while more than the bound is waiting for a slow disk, new events are dropped and
 * counted instead of holding requests or growing memory (kube-apiserver's blocking mode would stall requests).
 */

const MAX_PENDING_BYTES = 32 * 1024 * 1024;

export class AuditLogWriter {
  private readonly out: Writable;
  private readonly file: WriteStream | undefined;
  private readonly onError: (err: unknown) => void;
  private failed = false;
  dropped = 0;

  constructor(path: string, onError: (err: unknown) => void) {
    this.onError = onError;
    if (path === '-') this.out = process.stdout;
    else {
      this.file = createWriteStream(path, { flags: 'a', mode: 0o600 });
      this.file.on('error', (err) => {
        this.failed = true;
        this.onError(err);
      });
      this.out = this.file;
    }
  }

  write(event: unknown): void {
    if (this.failed || this.out.writableLength > MAX_PENDING_BYTES) {
      this.dropped++;
      return;
    }
    this.out.write(`${JSON.stringify(event)}\n`);
  }

  /** Flushes what is pending and closes the file (stdout stays open). */
  close(): Promise<void> {
    const file = this.file;
    if (file === undefined || this.failed) return Promise.resolve();
    return new Promise((resolve) => file.end(resolve));
  }
}
