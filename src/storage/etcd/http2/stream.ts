/** What the users of an HTTP/2 connection see of one stream. */

export type HeaderField = readonly [name: string, value: string];

/** What a stream's owner hears. close() comes last and once: no error when the peer ended the stream. */
export interface StreamListener {
  headers(fields: readonly HeaderField[], endStream: boolean): void;
  data(payload: Buffer): void;
  close(error: Error | undefined): void;
}

export interface Http2Stream {
  /** Queues bytes behind those not yet sent (flow control may hold them); `end` closes this side after them. */
  write(data: Buffer, end: boolean): void;
  /** Abandons the stream; its listener's close() follows with no error. */
  cancel(): void;
}

/** The stream never reached the server (the connection was never up, or the server went away below it): a retry is safe. */
export class StreamNotProcessedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamNotProcessedError';
  }
}
