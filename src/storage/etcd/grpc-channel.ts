import { Http2Connection } from './http2/connection.js';
import { type HeaderField, type Http2Stream, StreamNotProcessedError } from './http2/stream.js';

/** The bytes before each gRPC message: a compression flag and the message length (gRPC over HTTP/2). */
export const GRPC_PREFIX_BYTES = 5;

/** Responses to lists can be large; HTTP/2's 64 KiB default windows would make them crawl. */
const STREAM_WINDOW_BYTES = 16 * 1024 * 1024;
const CONNECTION_WINDOW_BYTES = 64 * 1024 * 1024;

/** A call etcd answered with a non-OK gRPC status; the message is etcd's (e.g. "etcdserver: mvcc: ..."). */
export class GrpcStatusError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'GrpcStatusError';
    this.code = code;
  }
}

export interface StreamListener {
  message(message: Buffer): void;
  close(error: Error | undefined): void;
}

export interface GrpcStream {
  /** Sends the message held after GRPC_PREFIX_BYTES free bytes, as for unary(). */
  send(framed: Buffer): void;
  /** Ends the stream from this side; the listener's close() follows with no error. */
  cancel(): void;
}

/** What a call learnt from its response headers and trailers. */
class CallState {
  status: number | undefined;
  message = '';
  failure: Error | undefined;

  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  headers(fields: readonly HeaderField[]): void {
    for (const [name, value] of fields) {
      if (name === ':status') {
        if (value !== '200') this.failure ??= new Error(`etcd answered ${this.path} with HTTP status ${value}`);
      } else if (name === 'grpc-status') {
        this.status ??= Number(value);
      } else if (name === 'grpc-message') {
        this.message = decodeGrpcMessage(value);
      }
    }
  }

  /** The call's error once the stream ended normally: a failed HTTP status, a gRPC error, or no status at all. */
  outcome(): Error | undefined {
    if (this.failure !== undefined) return this.failure;
    if (this.status === undefined) return new Error(`etcd ended the stream of ${this.path} without a gRPC status`);
    if (this.status === 0) return undefined;
    return new GrpcStatusError(this.status, this.message || `gRPC status ${this.status}`);
  }
}

/**
 * gRPC calls over one HTTP/2 connection to one of the endpoints at a time: unary calls whose request is the
 * caller's already encoded message, and bidirectional streams. This is all etcd's KV and Watch services need, and
 * a call costs the process a fraction of what it costs through a general gRPC client (@grpc/grpc-js under the
 * etcd3 library, with its interceptors, retry and circuit-breaker machinery and message objects) or through
 * node:http2 (see Http2Connection).
 *
 * A connection that breaks, or that etcd asks to leave (GOAWAY), is retired, and the next call opens a new one
 * (etcd restarted, say). A call that never reached etcd (the connection never came up, or etcd went away before
 * taking it) is sent again on a new connection; a call that may have reached etcd fails with the connection's
 * error, as a write must not be repeated blindly.
 */
export class GrpcChannel {
  readonly #endpoints: readonly URL[];
  #next = 0;
  #connection: Http2Connection | undefined;
  #closed = false;

  constructor(endpoints: readonly string[]) {
    if (endpoints.length === 0) throw new RangeError('GrpcChannel: at least one endpoint is required');
    this.#endpoints = endpoints.map(normalizeEndpoint);
  }

  /**
   * Sends the message that `framed` holds after GRPC_PREFIX_BYTES free bytes (the encoders leave them) and
   * resolves with the response message.
   */
  unary(path: string, framed: Buffer): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new Error('etcd client is closed'));
    return this.#attempt(path, frame(framed), 1);
  }

  close(): void {
    this.#closed = true;
    this.#connection?.close();
    this.#connection = undefined;
  }

  /**
   * Opens a bidirectional stream (etcd's Watch) on the current connection. The listener gets each message as
   * it is complete, and once, when the stream is over, why: undefined only after cancel().
   */
  stream(path: string, listener: StreamListener): GrpcStream {
    if (this.#closed) throw new Error('etcd client is closed');
    const call = new CallState(path);
    const messages = new MessageReader();
    let cancelled = false;
    const stream: Http2Stream = this.#connect().open(
      path,
      {
        headers: (fields) => call.headers(fields),
        data(chunk) {
          if (cancelled || call.failure !== undefined) return;
          try {
            for (const message of messages.push(chunk)) {
              listener.message(message);
              if (cancelled) return;
            }
          } catch (error) {
            call.failure = error instanceof Error ? error : new Error(String(error));
            stream.cancel();
          }
        },
        close(error) {
          if (cancelled) {
            listener.close(undefined);
            return;
          }
          listener.close(error ?? call.outcome() ?? new Error(`etcd ended the stream of ${path}`));
        },
      },
      undefined,
      false,
    );
    return {
      send(framed: Buffer): void {
        stream.write(frame(framed), false);
      },
      cancel(): void {
        if (cancelled) return;
        cancelled = true;
        stream.cancel();
      },
    };
  }

  #attempt(path: string, framed: Buffer, attempt: number): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const call = new CallState(path);
      const chunks: Buffer[] = [];
      const connection = this.#connect();
      connection.open(
        path,
        {
          headers: (fields) => call.headers(fields),
          data: (chunk) => chunks.push(chunk),
          close: (error) => {
            if (error !== undefined) {
              // A call etcd never saw is retried on a new connection: the next endpoint's when this one never
              // came up, the same endpoint's after a GOAWAY.
              if (error instanceof StreamNotProcessedError && attempt <= this.#endpoints.length && !this.#closed) {
                resolve(this.#attempt(path, framed, attempt + 1));
              } else {
                reject(error);
              }
              return;
            }
            const failure = call.outcome();
            if (failure !== undefined) {
              reject(failure);
              return;
            }
            try {
              resolve(unframe(chunks, path));
            } catch (unframeError) {
              reject(unframeError);
            }
          },
        },
        framed,
        true,
      );
    });
  }

  #connect(): Http2Connection {
    const current = this.#connection;
    if (current?.usable) return current;
    const endpoint = this.#endpoints[this.#next % this.#endpoints.length] as URL;
    const connection: Http2Connection = new Http2Connection(endpoint, {
      streamWindowBytes: STREAM_WINDOW_BYTES,
      connectionWindowBytes: CONNECTION_WINDOW_BYTES,
      onRetired: () => {
        if (this.#connection !== connection) return;
        this.#connection = undefined;
        // A connection that never came up sends the next calls to the next endpoint.
        if (!connection.connected) this.#next++;
      },
    });
    this.#connection = connection;
    return connection;
  }
}

/** etcd clients take a bare host:port as plain HTTP, and so does this one. */
function normalizeEndpoint(endpoint: string): URL {
  const url = new URL(endpoint.includes('://') ? endpoint : `http://${endpoint}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError(`etcd endpoint must be http(s)://host:port, got ${endpoint}`);
  return url;
}

/** Fills in the prefix of a message encoded after GRPC_PREFIX_BYTES free bytes. */
function frame(framed: Buffer): Buffer {
  framed[0] = 0;
  framed.writeUInt32BE(framed.byteLength - GRPC_PREFIX_BYTES, 1);
  return framed;
}

/** Splits a stream's bytes into its messages, which chunks cut anywhere. */
class MessageReader {
  /** Bytes of an incomplete message, joined only once it is complete so that a large one is copied once. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The incomplete message's full length with its prefix, once the prefix is known. */
  #needed = 0;

  push(chunk: Buffer): Buffer[] {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes < Math.max(this.#needed, GRPC_PREFIX_BYTES)) return [];
    let data = this.#pending.length === 1 ? chunk : Buffer.concat(this.#pending, this.#pendingBytes);
    const messages: Buffer[] = [];
    this.#needed = 0;
    while (data.byteLength >= GRPC_PREFIX_BYTES) {
      if (data[0] !== 0) throw new Error('etcd sent a compressed message, which was not asked for');
      const end = GRPC_PREFIX_BYTES + data.readUInt32BE(1);
      if (data.byteLength < end) {
        this.#needed = end;
        break;
      }
      messages.push(data.subarray(GRPC_PREFIX_BYTES, end));
      data = data.subarray(end);
    }
    this.#pending = data.byteLength === 0 ? [] : [data];
    this.#pendingBytes = data.byteLength;
    return messages;
  }
}

/** The single message of a unary response. */
function unframe(chunks: Buffer[], path: string): Buffer {
  const data = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  if (data.byteLength < GRPC_PREFIX_BYTES) throw new Error(`etcd sent no message in its answer to ${path}`);
  if (data[0] !== 0) throw new Error(`etcd sent a compressed answer to ${path}, which was not asked for`);
  const length = data.readUInt32BE(1);
  if (data.byteLength !== GRPC_PREFIX_BYTES + length) throw new Error(`etcd's answer to ${path} is not one message`);
  return data.subarray(GRPC_PREFIX_BYTES);
}

/** grpc-message is percent-encoded (gRPC over HTTP/2). */
function decodeGrpcMessage(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
