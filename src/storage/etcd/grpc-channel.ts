import type { TlsMaterial } from './http2/socket.js';
import { type HeaderField, type Http2Stream, type Http2Transport, StreamNotProcessedError } from './http2/stream.js';
import { ETCD_TRANSPORTS, type EtcdTransportKind, isEtcdTransport, openTransport } from './transport.js';

/** The bytes before each gRPC message: a compression flag and the message length (gRPC over HTTP/2). */
export const GRPC_PREFIX_BYTES = 5;

/** Responses to lists can be large; HTTP/2's 64 KiB default windows would make them crawl. */
const STREAM_WINDOW_BYTES = 16 * 1024 * 1024;
const CONNECTION_WINDOW_BYTES = 64 * 1024 * 1024;

/**
 * How long calls may take and how dead members are noticed. The defaults follow kube-apiserver where it has one
 * (a call's deadline is its request's, --request-timeout, 60 s) and are shorter where failing over matters more
 * than its etcd client's defaults (20 s to dial, a PING after 30 s of silence and 10 s for the answer): a frozen
 * member is left within some 4 to 6 s. `cascade serve` passes its --request-timeout as callTimeoutMs.
 */
export interface ChannelOptions {
  /** Client certificate and CA for https:// endpoints (kube-apiserver's --etcd-certfile/keyfile/cafile). */
  readonly tls?: TlsMaterial;
  /** Deadline of a unary call, its retries on other members included. */
  readonly callTimeoutMs?: number;
  /** The member must open its HTTP/2 session within this, or the next one is tried (nothing was sent). */
  readonly dialTimeoutMs?: number;
  /** A PING goes out after this much silence while calls or watches are open... */
  readonly keepaliveTimeMs?: number;
  /** ...and an answer must come within this, or the member is left for the next. */
  readonly keepaliveTimeoutMs?: number;
  /** The HTTP/2 implementation (see ETCD_TRANSPORTS): Cascade's own by default. */
  readonly transport?: EtcdTransportKind;
}

export const CHANNEL_DEFAULTS = {
  callTimeoutMs: 60_000,
  dialTimeoutMs: 5_000,
  keepaliveTimeMs: 2_000,
  keepaliveTimeoutMs: 2_000,
  transport: 'fast',
} as const satisfies ChannelOptions;

/**
 * After every member was tried once, retries wait this long, doubling, for this many more rounds (some 2.5 s
 * in all, what an election takes), within the call's deadline; then the last error is the call's: an etcd
 * that is down fails requests quickly rather than holding them until their deadline.
 */
const RETRY_BACKOFF_MS = 50;
const RETRY_BACKOFF_MAX_MS = 1_000;
const RETRY_ROUNDS = 6;

/** gRPC's status codes the channel acts on. */
const GRPC_DEADLINE_EXCEEDED = 4;
export const GRPC_UNAVAILABLE = 14;
/** What a member refuses calls with while it has no leader, before proposing anything (see request-headers). */
const NO_LEADER = 'etcdserver: no leader';

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

/** A unary call that got no answer within its deadline; it may have been applied. */
export class EtcdDeadlineError extends GrpcStatusError {
  constructor(path: string, timeoutMs: number) {
    super(GRPC_DEADLINE_EXCEEDED, `etcd did not answer ${path} within ${timeoutMs} ms: context deadline exceeded`);
    this.name = 'EtcdDeadlineError';
  }
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
 * gRPC calls over one HTTP/2 connection to one of the endpoints (members) at a time: unary calls whose request is the
 * caller's already encoded message, and bidirectional streams. This is all etcd's KV and Watch services need, and
 * a call costs the process a fraction of what it costs through a general gRPC client (@grpc/grpc-js under the
 * etcd3 library, with its interceptors, retry and circuit-breaker machinery and message objects) or through
 * node:http2 (see Http2Connection).
 *
 * A connection that breaks, that etcd asks to leave (GOAWAY), that never opens within the dial timeout, or whose
 * member stops answering PINGs, is retired, and the next call opens a new one to the next member. A call that
 * never reached etcd (not sent before the member answered, or refused before it was proposed: no leader) is
 * sent again; a read is also sent again after any failure of its connection; a write that may have reached etcd
 * fails with the connection's error, as a write must not be repeated blindly. Every unary call ends within its
 * deadline, retries included.
 */
export class GrpcChannel {
  readonly #endpoints: readonly URL[];
  readonly callTimeoutMs: number;
  readonly #options: Required<Omit<ChannelOptions, 'tls'>> & Pick<ChannelOptions, 'tls'>;
  #next = 0;
  #connection: Http2Transport | undefined;
  #closed = false;

  constructor(endpoints: readonly string[], options: ChannelOptions = {}) {
    if (endpoints.length === 0) throw new RangeError('GrpcChannel: at least one endpoint is required');
    this.#endpoints = endpoints.map(normalizeEndpoint);
    this.#options = { ...CHANNEL_DEFAULTS, ...definedOnly(options) };
    this.callTimeoutMs = this.#options.callTimeoutMs;
    for (const [name, value] of Object.entries(this.#options)) {
      if (typeof value === 'number' && !(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be > 0, got ${value}`);
    }
    if (!isEtcdTransport(this.#options.transport)) {
      throw new RangeError(`etcd transport must be one of ${ETCD_TRANSPORTS.join(', ')}, got ${this.#options.transport}`);
    }
  }

  /**
   * Sends the message that `framed` holds after GRPC_PREFIX_BYTES free bytes (the encoders leave them) and
   * resolves with the response message. `idempotent` calls (reads) may be sent again after a failure that
   * leaves unknown whether etcd got them. `timeoutMs` overrides the channel's call deadline (health checks).
   */
  unary(path: string, framed: Buffer, idempotent = false, timeoutMs = this.#options.callTimeoutMs): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new Error('etcd client is closed'));
    const message = frame(framed);
    return new Promise<Buffer>((resolve, reject) => {
      let settled = false;
      let current: Http2Stream | undefined;
      let retryTimer: NodeJS.Timeout | undefined;
      const settle = (error: Error | undefined, response?: Buffer): void => {
        settled = true;
        clearTimeout(deadline);
        clearTimeout(retryTimer);
        if (error === undefined) resolve(response as Buffer);
        else reject(error);
      };
      const deadline = setTimeout(() => {
        const abandoned = current;
        settle(new EtcdDeadlineError(path, timeoutMs));
        abandoned?.cancel();
      }, timeoutMs);
      const attempt = (n: number): void => {
        if (this.#closed) {
          settle(new Error('etcd client is closed'));
          return;
        }
        current = this.#send(path, message, (error, response) => {
          current = undefined;
          if (settled) return;
          if (error === undefined || !retriable(error, idempotent) || n >= this.#endpoints.length + RETRY_ROUNDS) {
            settle(error, response);
            return;
          }
          // Each member once at once; then, all failing (an election, a restart), with growing pauses.
          const over = n - this.#endpoints.length;
          if (over < 0) attempt(n + 1);
          else retryTimer = setTimeout(() => attempt(n + 1), Math.min(RETRY_BACKOFF_MAX_MS, RETRY_BACKOFF_MS * 2 ** over));
        });
      };
      attempt(1);
    });
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

  /** One try of a unary call on the current connection; `done` is called once, unless the stream is cancelled. */
  #send(path: string, framed: Buffer, done: (error: Error | undefined, response?: Buffer) => void): Http2Stream {
    const call = new CallState(path);
    const chunks: Buffer[] = [];
    return this.#connect().open(
      path,
      {
        headers: (fields) => call.headers(fields),
        data: (chunk) => chunks.push(chunk),
        close: (error) => {
          const failure = error ?? call.outcome();
          if (failure !== undefined) {
            done(failure);
            return;
          }
          let response: Buffer;
          try {
            response = unframe(chunks, path);
          } catch (unframeError) {
            done(unframeError as Error);
            return;
          }
          done(undefined, response);
        },
      },
      framed,
      true,
    );
  }

  #connect(): Http2Transport {
    const current = this.#connection;
    if (current?.usable) return current;
    const endpoint = this.#endpoints[this.#next % this.#endpoints.length] as URL;
    const connection: Http2Transport = openTransport(this.#options.transport, endpoint, {
      streamWindowBytes: STREAM_WINDOW_BYTES,
      connectionWindowBytes: CONNECTION_WINDOW_BYTES,
      tls: this.#options.tls,
      dialTimeoutMs: this.#options.dialTimeoutMs,
      keepalive: { intervalMs: this.#options.keepaliveTimeMs, timeoutMs: this.#options.keepaliveTimeoutMs },
      onRetired: () => {
        if (this.#connection !== connection) return;
        this.#connection = undefined;
        // Whatever ended this member's connection (it died, froze, restarts, or never answered), the next
        // calls go to the next member.
        this.#next++;
      },
    });
    this.#connection = connection;
    return connection;
  }
}

/** Whether a failed try may be sent again: never when etcd may have applied a write. */
function retriable(error: Error, idempotent: boolean): boolean {
  if (error instanceof StreamNotProcessedError) return true;
  if (error instanceof GrpcStatusError) return error.code === GRPC_UNAVAILABLE && (idempotent || error.message === NO_LEADER);
  // The connection failed under the call, or the stream was reset: unknown whether etcd applied it.
  return idempotent;
}

function definedOnly(options: ChannelOptions): ChannelOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ChannelOptions;
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
