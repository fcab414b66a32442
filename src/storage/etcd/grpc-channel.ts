import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  connect,
  constants,
  type IncomingHttpHeaders,
  type IncomingHttpStatusHeader,
} from 'node:http2';

/** The bytes before each gRPC message: a compression flag and the message length (gRPC over HTTP/2). */
export const GRPC_PREFIX_BYTES = 5;

/** Responses to lists can be large; HTTP/2's 64 KiB default windows would make them crawl. */
const STREAM_WINDOW_BYTES = 16 * 1024 * 1024;
const SESSION_WINDOW_BYTES = 64 * 1024 * 1024;

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

interface GrpcStatus {
  readonly code: number;
  readonly message: string;
}

interface Connection {
  readonly session: ClientHttp2Session;
  connected: boolean;
  /** Calls in flight: the session keeps the process alive only while there are some. */
  active: number;
}

/**
 * gRPC calls over one HTTP/2 connection to one of the endpoints at a time: unary calls whose request is the
 * caller's already encoded message, and bidirectional streams. This is all etcd's KV and Watch services need, and
 * a call costs the process less than half the CPU it costs through a general gRPC client (@grpc/grpc-js under the
 * etcd3 library), whose interceptors, retry and circuit-breaker machinery and message objects are what limits a
 * server on etcd, long before etcd does.
 *
 * A connection that breaks is dropped, and the next call opens a new one (etcd restarted, say). A call whose
 * connection could not be opened at all was never sent, so it moves on to the next endpoint; a call that may
 * have reached etcd fails with the connection's error, as a write must not be repeated blindly.
 */
export class GrpcChannel {
  readonly #endpoints: readonly string[];
  #next = 0;
  #connection: Connection | undefined;
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
    this.#connection?.session.close();
    this.#connection = undefined;
  }

  /**
   * Opens a bidirectional stream (etcd's Watch) on the current connection. The listener gets each message as
   * it is complete, and once, when the stream is over, why: undefined only after cancel().
   */
  stream(path: string, listener: StreamListener): GrpcStream {
    if (this.#closed) throw new Error('etcd client is closed');
    const connection = this.#connect();
    const stream = this.#request(connection, path);
    const messages = new MessageReader();
    let cancelled = false;
    let status: GrpcStatus | undefined;
    let failure: Error | undefined;
    stream.on('response', (headers: IncomingHttpHeaders & IncomingHttpStatusHeader) => {
      if (headers[':status'] !== 200) failure ??= new Error(`etcd answered ${path} with HTTP status ${String(headers[':status'])}`);
      status ??= statusOf(headers);
    });
    stream.on('trailers', (trailers: IncomingHttpHeaders) => {
      status ??= statusOf(trailers);
    });
    stream.on('data', (chunk: Buffer) => {
      if (cancelled || failure !== undefined) return;
      try {
        for (const message of messages.push(chunk)) {
          listener.message(message);
          if (cancelled) return;
        }
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        stream.close(constants.NGHTTP2_CANCEL);
      }
    });
    stream.on('error', (error: Error) => {
      failure ??= error;
    });
    stream.on('close', () => {
      this.#release(connection);
      if (cancelled) {
        listener.close(undefined);
        return;
      }
      listener.close(
        failure ?? statusError(status) ?? new Error(`etcd ended the stream of ${path} (HTTP/2 code ${stream.rstCode ?? 'none'})`),
      );
    });
    return {
      send(framed: Buffer): void {
        stream.write(frame(framed));
      },
      cancel(): void {
        if (cancelled) return;
        cancelled = true;
        stream.close(constants.NGHTTP2_CANCEL);
      },
    };
  }

  #attempt(path: string, framed: Buffer, attempt: number): Promise<Buffer> {
    const connection = this.#connect();
    return new Promise<Buffer>((resolve, reject) => {
      let stream: ClientHttp2Stream;
      try {
        stream = this.#request(connection, path);
      } catch (error) {
        reject(error);
        return;
      }
      const chunks: Buffer[] = [];
      let status: GrpcStatus | undefined;
      let failure: Error | undefined;
      stream.on('response', (headers: IncomingHttpHeaders & IncomingHttpStatusHeader) => {
        if (headers[':status'] !== 200) failure ??= new Error(`etcd answered ${path} with HTTP status ${String(headers[':status'])}`);
        status ??= statusOf(headers);
      });
      stream.on('trailers', (trailers: IncomingHttpHeaders) => {
        status ??= statusOf(trailers);
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => {
        failure ??= error;
      });
      stream.on('close', () => {
        this.#release(connection);
        if (failure === undefined && status === undefined) {
          failure = new Error(`etcd closed the stream of ${path} without a gRPC status (HTTP/2 code ${stream.rstCode ?? 'none'})`);
        }
        if (failure !== undefined) {
          if (!connection.connected && attempt < this.#endpoints.length && !this.#closed) {
            resolve(this.#attempt(path, framed, attempt + 1));
          } else {
            reject(failure);
          }
          return;
        }
        const error = statusError(status);
        if (error !== undefined) {
          reject(error);
          return;
        }
        try {
          resolve(unframe(chunks, path));
        } catch (unframeError) {
          reject(unframeError);
        }
      });
      stream.end(framed);
    });
  }

  #request(connection: Connection, path: string): ClientHttp2Stream {
    let stream: ClientHttp2Stream;
    try {
      stream = connection.session.request(
        { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' },
        { endStream: false },
      );
    } catch (error) {
      this.#drop(connection);
      throw error;
    }
    if (++connection.active === 1) connection.session.ref();
    return stream;
  }

  #release(connection: Connection): void {
    if (--connection.active === 0) connection.session.unref();
  }

  #connect(): Connection {
    const current = this.#connection;
    if (current !== undefined) {
      if (!current.session.closed && !current.session.destroyed) return current;
      // Broken, and its session's own events not yet delivered.
      this.#drop(current);
    }
    const endpoint = this.#endpoints[this.#next % this.#endpoints.length] as string;
    const session = connect(endpoint, { settings: { initialWindowSize: STREAM_WINDOW_BYTES, enablePush: false } });
    const connection: Connection = { session, connected: false, active: 0 };
    session.unref();
    session.on('connect', () => {
      connection.connected = true;
      session.setLocalWindowSize(SESSION_WINDOW_BYTES);
    });
    // Errors reach the calls in flight through their streams; the connection is only retired here.
    session.on('error', () => this.#drop(connection));
    session.on('goaway', () => this.#drop(connection));
    session.on('close', () => this.#drop(connection));
    this.#connection = connection;
    return connection;
  }

  /** Retires a broken connection; one that never connected sends the next calls to the next endpoint. */
  #drop(connection: Connection): void {
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    if (!connection.connected) this.#next++;
    if (!connection.session.destroyed) connection.session.close();
  }
}

/** etcd clients take a bare host:port as plain HTTP, and so does this one. */
function normalizeEndpoint(endpoint: string): string {
  const url = endpoint.includes('://') ? endpoint : `http://${endpoint}`;
  const { protocol } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') throw new RangeError(`etcd endpoint must be http(s)://host:port, got ${endpoint}`);
  return url;
}

/** Fills in the prefix of a message encoded after GRPC_PREFIX_BYTES free bytes. */
function frame(framed: Buffer): Buffer {
  framed[0] = 0;
  framed.writeUInt32BE(framed.byteLength - GRPC_PREFIX_BYTES, 1);
  return framed;
}

function statusOf(headers: IncomingHttpHeaders): GrpcStatus | undefined {
  const code = headers['grpc-status'];
  if (typeof code !== 'string') return undefined;
  const message = headers['grpc-message'];
  return { code: Number(code), message: typeof message === 'string' ? decodeGrpcMessage(message) : '' };
}

function statusError(status: GrpcStatus | undefined): GrpcStatusError | undefined {
  if (status === undefined || status.code === 0) return undefined;
  return new GrpcStatusError(status.code, status.message || `gRPC status ${status.code}`);
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
