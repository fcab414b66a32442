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

/**
 * One HTTP/2 connection to one etcd member, as GrpcChannel uses it: streams that carry a unary call (`end` with
 * the request) or a bidirectional one (written to later), each heard through its StreamListener, and the error
 * contract above: a stream that cannot have reached the member closes with StreamNotProcessedError, any other
 * failure with a plain Error. Http2Connection (Cascade's own, the fast path) and NodeHttp2Connection (over
 * node:http2) both keep it, so the channel above them, its retries, deadlines and failover, is the same for both.
 */
export interface Http2Transport {
  /** Whether the member answered (its SETTINGS arrived): before that, nothing was sent. */
  readonly connected: boolean;
  /** Whether new streams may be opened here. */
  readonly usable: boolean;
  /** Opens a request stream on `path`, sending `data` (if any) with the headers and ending this side if `end`. */
  open(path: string, listener: StreamListener, data: Buffer | undefined, end: boolean): Http2Stream;
  /** No new streams; the connection goes once the open ones are over. */
  close(): void;
}
