import { type ClientHttp2Session, type ClientHttp2Stream, connect, constants, type IncomingHttpHeaders } from 'node:http2';
import type { ConnectionOptions } from './connection-state.js';
import { KeepaliveWatchdog } from './keepalive.js';
import { openSocket } from './socket.js';
import { type HeaderField, type Http2Stream, type Http2Transport, type StreamListener, StreamNotProcessedError } from './stream.js';

/**
 * node:http2 buffers a whole list response (up to the 16 MiB stream window) per stream: its 10 MB default
 * session budget would make it refuse large lists with ENHANCE_YOUR_CALM.
 */
const MAX_SESSION_MEMORY_MB = 512;

interface NodeStreamState {
  readonly path: string;
  readonly listener: StreamListener;
  /** What was written before the member answered and the request could go out. */
  readonly queued: Buffer[];
  endQueued: boolean;
  request: ClientHttp2Stream | undefined;
  /** The listener heard close(): later events of the request are ignored. */
  done: boolean;
}

/**
 * The same transport as Http2Connection, over node:http2 (nghttp2): the reference implementation the fast path
 * is compared with, and a fallback should the fast one meet a server it does not understand. It costs the process
 * several times the CPU per call (stream objects, events, header objects). The socket (TLS with ALPN h2, TCP
 * keepalive), the PING watchdog and the rule that nothing goes out before the member's SETTINGS are shared.
 */
export class NodeHttp2Connection implements Http2Transport {
  readonly #session: ClientHttp2Session;
  readonly #origin: string;
  readonly #options: ConnectionOptions;
  readonly #streams = new Set<NodeStreamState>();
  readonly #waiting: NodeStreamState[] = [];
  readonly #dialTimer: NodeJS.Timeout;
  readonly #keepalive: KeepaliveWatchdog;
  #connected = false;
  #retired = false;
  #failure: Error | undefined;

  constructor(url: URL, options: ConnectionOptions) {
    this.#options = options;
    this.#origin = url.origin;
    this.#session = connect(url.origin, {
      createConnection: () => openSocket(url, options.tls, options.keepalive.intervalMs, (error) => this.#fail(error)),
      settings: { enablePush: false, initialWindowSize: options.streamWindowBytes },
      maxSessionMemory: MAX_SESSION_MEMORY_MB,
    });
    this.#dialTimer = setTimeout(
      () => this.#fail(new StreamNotProcessedError(`${url.origin} did not open an HTTP/2 session within ${options.dialTimeoutMs} ms`)),
      options.dialTimeoutMs,
    );
    this.#dialTimer.unref();
    this.#keepalive = new KeepaliveWatchdog(options.keepalive, {
      active: () => this.#streams.size > 0 || this.#waiting.length > 0,
      ping: () => this.#ping(),
      dead: (error) => this.#fail(new Error(`${url.origin}: ${error.message}`)),
    });
    const session = this.#session;
    session.once('remoteSettings', () => {
      this.#connected = true;
      clearTimeout(this.#dialTimer);
      session.setLocalWindowSize(options.connectionWindowBytes);
      for (const state of this.#waiting.splice(0)) this.#start(state);
    });
    session.on('goaway', (code: number, lastStreamId: number, opaque?: Buffer) => this.#goaway(code, lastStreamId, opaque));
    session.on('error', (error: Error) => this.#fail(error));
    session.on('close', () => this.#fail(new Error(`${url.origin} closed the connection`)));
  }

  get connected(): boolean {
    return this.#connected;
  }

  get usable(): boolean {
    return !this.#retired;
  }

  open(path: string, listener: StreamListener, data: Buffer | undefined, end: boolean): Http2Stream {
    if (this.#retired) throw new Error('HTTP/2 connection to etcd is no longer usable');
    const state: NodeStreamState = {
      path,
      listener,
      queued: data === undefined || data.byteLength === 0 ? [] : [data],
      endQueued: end,
      request: undefined,
      done: false,
    };
    this.#session.ref();
    if (this.#connected) this.#start(state);
    else this.#waiting.push(state);
    return {
      write: (bytes, endAfter) => {
        if (state.endQueued) throw new Error(`HTTP/2 stream ${path} was already ended`);
        state.endQueued = endAfter;
        if (state.request === undefined) {
          if (bytes.byteLength > 0) state.queued.push(bytes);
          return;
        }
        if (state.done) return;
        if (bytes.byteLength > 0) state.request.write(bytes);
        if (endAfter) state.request.end();
      },
      cancel: () => this.#cancel(state),
    };
  }

  close(): void {
    this.#retire();
    if (this.#streams.size === 0 && this.#waiting.length === 0) this.#end();
  }

  #start(state: NodeStreamState): void {
    let request: ClientHttp2Stream;
    try {
      request = this.#session.request(
        { ':method': 'POST', ':path': state.path, 'content-type': 'application/grpc', te: 'trailers', hasleader: 'true' },
        { endStream: false },
      );
    } catch (error) {
      // The session went away between the member's answer and this request: nothing was sent.
      this.#finish(state, new StreamNotProcessedError((error as Error).message));
      return;
    }
    state.request = request;
    this.#streams.add(state);
    for (const chunk of state.queued.splice(0)) request.write(chunk);
    if (state.endQueued) request.end();
    let streamError: Error | undefined;
    request.on('response', (headers: IncomingHttpHeaders, flags: number) => {
      this.#keepalive.heard();
      this.#keepalive.responded();
      if (!state.done) state.listener.headers(headerFields(headers), (flags & constants.NGHTTP2_FLAG_END_STREAM) !== 0);
    });
    request.on('trailers', (headers: IncomingHttpHeaders) => {
      this.#keepalive.heard();
      if (!state.done) state.listener.headers(headerFields(headers), true);
    });
    request.on('data', (chunk: Buffer) => {
      this.#keepalive.heard();
      this.#keepalive.responded();
      if (!state.done) state.listener.data(chunk);
    });
    request.on('error', (error: Error) => {
      streamError ??= error;
    });
    request.on('close', () => this.#finish(state, this.#streamOutcome(state, request.rstCode, streamError)));
  }

  /** Why a stream closed: a reset by the member, a refusal (nothing processed), or nothing wrong. */
  #streamOutcome(state: NodeStreamState, rstCode: number, error: Error | undefined): Error | undefined {
    if (rstCode === constants.NGHTTP2_REFUSED_STREAM) {
      return new StreamNotProcessedError(`etcd refused the stream of ${state.path} (HTTP/2 error code ${rstCode})`);
    }
    if (rstCode !== constants.NGHTTP2_NO_ERROR) return new Error(`etcd reset the stream of ${state.path} (HTTP/2 error code ${rstCode})`);
    return error;
  }

  #cancel(state: NodeStreamState): void {
    if (state.done) return;
    const waitingAt = this.#waiting.indexOf(state);
    if (waitingAt >= 0) this.#waiting.splice(waitingAt, 1);
    const request = state.request;
    this.#finish(state, undefined);
    if (request !== undefined && !request.closed) request.close(constants.NGHTTP2_CANCEL);
  }

  #finish(state: NodeStreamState, error: Error | undefined): void {
    if (state.done) return;
    state.done = true;
    this.#streams.delete(state);
    state.listener.close(error);
    if (this.#streams.size === 0 && this.#waiting.length === 0 && this.#failure === undefined) {
      this.#session.unref();
      if (this.#retired) this.#end();
    }
  }

  #ping(): void {
    try {
      this.#session.ping((error) => {
        if (error === null) this.#keepalive.acknowledged();
      });
    } catch {
      // Too many outstanding or a closing session: the watchdog's timeout decides.
    }
  }

  #goaway(code: number, lastStreamId: number, opaque: Buffer | undefined): void {
    this.#retire();
    const detail = opaque !== undefined && opaque.byteLength > 0 ? `: ${opaque.toString('utf8')}` : '';
    const why = `etcd is going away (HTTP/2 error code ${code}${detail})`;
    for (const state of this.#waiting.splice(0)) this.#finish(state, new StreamNotProcessedError(why));
    for (const state of [...this.#streams]) {
      const id = state.request?.id;
      if (id === undefined || id > lastStreamId) this.#finish(state, new StreamNotProcessedError(why));
    }
  }

  /** The connection is unusable: every stream fails with `error` (nothing sent before the member answered), and the session goes. */
  #fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#stopTimers();
    this.#retire();
    const states = [...this.#streams, ...this.#waiting.splice(0)];
    for (const state of states) {
      this.#finish(state, state.request === undefined || !this.#connected ? new StreamNotProcessedError(error.message) : error);
    }
    if (!this.#session.destroyed) this.#session.destroy();
  }

  #stopTimers(): void {
    clearTimeout(this.#dialTimer);
    this.#keepalive.stop();
  }

  #retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    this.#options.onRetired();
  }

  #end(): void {
    this.#stopTimers();
    if (!this.#session.closed) this.#session.close();
  }
}

/** node:http2's header object as the listener's fields; repeated fields are joined as HTTP joins them. */
function headerFields(headers: IncomingHttpHeaders): HeaderField[] {
  return Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]);
}
