import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  CLIENT_PREFACE,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_WINDOW_BYTES,
  ErrorCode,
  FRAME_HEADER_BYTES,
  Flag,
  FrameType,
  frame,
  goawayFrame,
  MAX_STREAM_ID,
  MAX_WINDOW_BYTES,
  rstStreamFrame,
  Setting,
  settingsFrame,
  unpad,
  windowUpdateFrame,
} from './frames.js';
import { HpackDecoder } from './hpack-decoder.js';
import type { ConnectionOptions, StreamState } from './connection-state.js';
import { KeepaliveWatchdog } from './keepalive.js';
import { encodeRequestHeaders } from './request-headers.js';
import { openSocket } from './socket.js';
import { type Http2Stream, type Http2Transport, type StreamListener, StreamNotProcessedError } from './stream.js';

export type { ConnectionOptions };

const PING_PAYLOAD = Buffer.alloc(8);

/** The largest frame this side accepts: it never raises SETTINGS_MAX_FRAME_SIZE above the default. */
const MAX_INBOUND_FRAME_BYTES = DEFAULT_MAX_FRAME_BYTES;

/**
 * One HTTP/2 connection (RFC 9113), client side, with only what gRPC calls to etcd use: requests whose headers
 * are fixed per path, DATA both ways under flow control, trailers, RST_STREAM, GOAWAY, SETTINGS and PING. It
 * exists because node:http2 spends some 50 µs of the main thread per call on stream objects, events and header
 * objects (measured with etcd's Txn at 32 in flight), which is most of what a create on etcd costs the server;
 * here a call is one frame pair written and a few frames parsed. Outgoing frames of one event-loop turn leave in
 * one write.
 */
export class Http2Connection implements Http2Transport {
  readonly #socket: Socket | TLSSocket;
  readonly #scheme: 'http' | 'https';
  readonly #authority: string;
  readonly #options: ConnectionOptions;
  readonly #decoder = new HpackDecoder();
  readonly #requestHeaders = new Map<string, Buffer>();
  readonly #streams = new Map<number, StreamState>();
  /** Streams opened while the server's concurrency limit was reached, started as others finish. */
  readonly #waiting: StreamState[] = [];
  /** Streams with bytes queued behind an exhausted window. */
  readonly #blocked = new Set<StreamState>();
  #nextStreamId = 1;
  /** The server's SETTINGS arrived: it is alive and speaks HTTP/2, and streams may go out. */
  #connected = false;
  readonly #dialTimer: NodeJS.Timeout;
  readonly #keepalive: KeepaliveWatchdog;
  #retired = false;
  #failure: Error | undefined;
  #socketError: Error | undefined;
  #sendWindow = DEFAULT_WINDOW_BYTES;
  #peerInitialWindow = DEFAULT_WINDOW_BYTES;
  #peerMaxFrame = DEFAULT_MAX_FRAME_BYTES;
  #peerMaxStreams = Number.POSITIVE_INFINITY;
  #unacknowledged = 0;
  #inbound: Buffer | undefined;
  #headerBlock: { readonly streamId: number; readonly endStream: boolean; readonly fragments: Buffer[] } | undefined;
  #outbound: Buffer[] = [];

  constructor(url: URL, options: ConnectionOptions) {
    this.#options = options;
    this.#scheme = url.protocol === 'https:' ? 'https' : 'http';
    this.#authority = url.host;
    const socket = openSocket(url, options.tls, options.keepalive.intervalMs, (error) => this.#fail(error));
    this.#socket = socket;
    this.#dialTimer = setTimeout(
      () => this.#fail(new StreamNotProcessedError(`${url.origin} did not open an HTTP/2 session within ${options.dialTimeoutMs} ms`)),
      options.dialTimeoutMs,
    );
    this.#dialTimer.unref();
    this.#keepalive = new KeepaliveWatchdog(options.keepalive, {
      active: () => this.#streams.size > 0 || this.#waiting.length > 0,
      ping: () => this.#queue(frame(FrameType.PING, 0, 0, PING_PAYLOAD)),
      dead: (error) => this.#fail(new Error(`${url.origin}: ${error.message}`)),
    });
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', (error: Error) => {
      this.#socketError ??= error;
    });
    socket.on('close', () => this.#fail(this.#socketError ?? new Error(`${url.origin} closed the connection`)));
    this.#queue(CLIENT_PREFACE);
    this.#queue(
      settingsFrame([
        [Setting.ENABLE_PUSH, 0],
        [Setting.INITIAL_WINDOW_SIZE, options.streamWindowBytes],
      ]),
    );
    if (options.connectionWindowBytes > DEFAULT_WINDOW_BYTES) {
      this.#queue(windowUpdateFrame(0, options.connectionWindowBytes - DEFAULT_WINDOW_BYTES));
    }
  }

  /** Whether the server ever answered: calls on a connection where it never did were never sent anywhere. */
  get connected(): boolean {
    return this.#connected;
  }

  /** Whether new streams may be opened here. */
  get usable(): boolean {
    return !this.#retired;
  }

  /** Opens a request stream on `path`, sending `data` (if any) with the headers and ending this side if `end`. */
  open(path: string, listener: StreamListener, data: Buffer | undefined, end: boolean): Http2Stream {
    if (this.#retired) throw new Error('HTTP/2 connection to etcd is no longer usable');
    const state: StreamState = {
      id: 0,
      path,
      listener,
      sendWindow: this.#peerInitialWindow,
      queued: data === undefined || data.byteLength === 0 ? [] : [data],
      endQueued: end,
      localEnded: false,
      unacknowledged: 0,
    };
    // Until the server has answered, streams wait: bytes sent to a frozen server could still be applied when it
    // wakes, after their caller was told they failed and sent them elsewhere.
    if (this.#connected && this.#streams.size < this.#peerMaxStreams) {
      this.#start(state);
    } else {
      this.#socket.ref();
      this.#waiting.push(state);
    }
    return {
      write: (bytes, endAfter) => {
        if (state.localEnded || state.endQueued) throw new Error(`HTTP/2 stream ${path} was already ended`);
        if (bytes.byteLength > 0) state.queued.push(bytes);
        state.endQueued = endAfter;
        if (state.id !== 0 && this.#streams.get(state.id) === state) this.#pump(state, undefined);
      },
      cancel: () => this.#cancel(state),
    };
  }

  /** No new streams; the socket ends once the open ones are over. */
  close(): void {
    this.#retire();
    if (this.#streams.size === 0 && this.#waiting.length === 0) this.#end();
  }

  #start(state: StreamState): void {
    if (this.#nextStreamId > MAX_STREAM_ID) {
      // Stream ids are spent: this connection takes no more, and the caller's next call opens another.
      this.#retire();
      state.listener.close(new StreamNotProcessedError('HTTP/2 stream ids of this connection are exhausted'));
      return;
    }
    state.id = this.#nextStreamId;
    this.#nextStreamId += 2;
    state.sendWindow = this.#peerInitialWindow;
    if (this.#streams.size === 0) this.#socket.ref();
    this.#streams.set(state.id, state);
    let block = this.#requestHeaders.get(state.path);
    if (block === undefined) {
      block = encodeRequestHeaders(this.#scheme, this.#authority, state.path);
      this.#requestHeaders.set(state.path, block);
    }
    this.#pump(state, block);
  }

  /** Sends what flow control allows of the stream's queued bytes, after its HEADERS when `headers` is given. */
  #pump(state: StreamState, headers: Buffer | undefined): void {
    if (headers !== undefined) {
      const endWithHeaders = state.endQueued && state.queued.length === 0;
      this.#queue(frame(FrameType.HEADERS, Flag.END_HEADERS | (endWithHeaders ? Flag.END_STREAM : 0), state.id, headers));
      if (endWithHeaders) state.localEnded = true;
    }
    while (state.queued.length > 0) {
      const next = state.queued[0] as Buffer;
      const allowed = Math.min(next.byteLength, this.#sendWindow, state.sendWindow, this.#peerMaxFrame);
      if (allowed <= 0) {
        this.#blocked.add(state);
        return;
      }
      const chunk = allowed === next.byteLength ? next : next.subarray(0, allowed);
      if (allowed === next.byteLength) state.queued.shift();
      else state.queued[0] = next.subarray(allowed);
      const last = state.queued.length === 0 && state.endQueued;
      this.#queue(frame(FrameType.DATA, last ? Flag.END_STREAM : 0, state.id, chunk));
      this.#sendWindow -= allowed;
      state.sendWindow -= allowed;
      if (last) state.localEnded = true;
    }
    this.#blocked.delete(state);
    if (state.endQueued && !state.localEnded) {
      this.#queue(frame(FrameType.DATA, Flag.END_STREAM, state.id));
      state.localEnded = true;
    }
  }

  #cancel(state: StreamState): void {
    const waitingAt = this.#waiting.indexOf(state);
    if (waitingAt >= 0) {
      this.#waiting.splice(waitingAt, 1);
      state.listener.close(undefined);
      return;
    }
    if (state.id === 0 || this.#streams.get(state.id) !== state) return;
    this.#queue(rstStreamFrame(state.id, ErrorCode.CANCEL));
    this.#finish(state, undefined, false);
  }

  /** The stream is over: forgotten here, its listener told, the next waiting stream started. */
  #finish(state: StreamState, error: Error | undefined, resetIfOpen: boolean): void {
    this.#streams.delete(state.id);
    this.#blocked.delete(state);
    if (resetIfOpen && !state.localEnded && this.#failure === undefined) {
      // The server answered before this side finished sending (an early error, say): stop the rest.
      this.#queue(rstStreamFrame(state.id, ErrorCode.CANCEL));
    }
    state.listener.close(error);
    this.#startWaiting();
    if (this.#streams.size === 0) {
      this.#socket.unref();
      if (this.#retired && this.#waiting.length === 0) this.#end();
    }
  }

  #startWaiting(): void {
    while (this.#waiting.length > 0 && this.#streams.size < this.#peerMaxStreams && !this.#retired) {
      this.#start(this.#waiting.shift() as StreamState);
    }
  }

  #receive(chunk: Buffer): void {
    this.#keepalive.heard();
    const buffer = this.#inbound === undefined ? chunk : Buffer.concat([this.#inbound, chunk]);
    let offset = 0;
    while (buffer.byteLength - offset >= FRAME_HEADER_BYTES && this.#failure === undefined) {
      const length = buffer.readUIntBE(offset, 3);
      if (length > MAX_INBOUND_FRAME_BYTES) {
        this.#protocolFailure(ErrorCode.FRAME_SIZE_ERROR, `a ${length}-byte frame exceeds the ${MAX_INBOUND_FRAME_BYTES}-byte limit`);
        return;
      }
      const end = offset + FRAME_HEADER_BYTES + length;
      if (buffer.byteLength < end) break;
      const type = buffer[offset + 3] as number;
      const flags = buffer[offset + 4] as number;
      const streamId = buffer.readUInt32BE(offset + 5) & MAX_STREAM_ID;
      const payload = buffer.subarray(offset + FRAME_HEADER_BYTES, end);
      offset = end;
      this.#frame(type, flags, streamId, payload);
    }
    this.#inbound = offset === buffer.byteLength ? undefined : buffer.subarray(offset);
  }

  #frame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (this.#headerBlock !== undefined && (type !== FrameType.CONTINUATION || streamId !== this.#headerBlock.streamId)) {
      this.#protocolFailure(ErrorCode.PROTOCOL_ERROR, `a header block of stream ${this.#headerBlock.streamId} was interrupted`);
      return;
    }
    switch (type) {
      case FrameType.DATA:
        this.#data(flags, streamId, payload);
        return;
      case FrameType.HEADERS:
        this.#headers(flags, streamId, payload);
        return;
      case FrameType.CONTINUATION:
        this.#continuation(flags, streamId, payload);
        return;
      case FrameType.RST_STREAM:
        this.#reset(streamId, payload);
        return;
      case FrameType.SETTINGS:
        this.#settings(flags, payload);
        return;
      case FrameType.PING:
        if ((flags & Flag.ACK) === 0) this.#queue(frame(FrameType.PING, Flag.ACK, 0, payload));
        else this.#keepalive.acknowledged();
        return;
      case FrameType.GOAWAY:
        this.#goaway(payload);
        return;
      case FrameType.WINDOW_UPDATE:
        this.#windowUpdate(streamId, payload);
        return;
      case FrameType.PUSH_PROMISE:
        this.#protocolFailure(ErrorCode.PROTOCOL_ERROR, 'the server pushed a stream although SETTINGS_ENABLE_PUSH is 0');
        return;
      default:
        // PRIORITY, and extension frame types, which an endpoint ignores.
        return;
    }
  }

  #data(flags: number, streamId: number, payload: Buffer): void {
    this.#keepalive.responded();
    this.#unacknowledged += payload.byteLength;
    if (this.#unacknowledged >= this.#options.connectionWindowBytes / 2) {
      this.#queue(windowUpdateFrame(0, this.#unacknowledged));
      this.#unacknowledged = 0;
    }
    const state = this.#streams.get(streamId);
    if (state === undefined) return;
    const data = (flags & Flag.PADDED) === 0 ? payload : unpad(payload);
    if (data === undefined) {
      this.#protocolFailure(ErrorCode.PROTOCOL_ERROR, `stream ${streamId} sent padding longer than its DATA frame`);
      return;
    }
    const endStream = (flags & Flag.END_STREAM) !== 0;
    if (!endStream) {
      state.unacknowledged += payload.byteLength;
      if (state.unacknowledged >= this.#options.streamWindowBytes / 2) {
        this.#queue(windowUpdateFrame(streamId, state.unacknowledged));
        state.unacknowledged = 0;
      }
    }
    if (data.byteLength > 0) state.listener.data(data);
    if (endStream && this.#streams.get(streamId) === state) this.#finish(state, undefined, true);
  }

  #headers(flags: number, streamId: number, payload: Buffer): void {
    let fragment: Buffer | undefined = (flags & Flag.PADDED) === 0 ? payload : unpad(payload);
    if (fragment !== undefined && (flags & Flag.PRIORITY) !== 0) fragment = fragment.byteLength >= 5 ? fragment.subarray(5) : undefined;
    if (fragment === undefined || streamId === 0) {
      this.#protocolFailure(ErrorCode.PROTOCOL_ERROR, `malformed HEADERS frame on stream ${streamId}`);
      return;
    }
    const endStream = (flags & Flag.END_STREAM) !== 0;
    if ((flags & Flag.END_HEADERS) !== 0) this.#headerBlockDone(streamId, endStream, fragment);
    else this.#headerBlock = { streamId, endStream, fragments: [fragment] };
  }

  #continuation(flags: number, streamId: number, payload: Buffer): void {
    const pending = this.#headerBlock;
    if (pending === undefined) {
      this.#protocolFailure(ErrorCode.PROTOCOL_ERROR, `CONTINUATION on stream ${streamId} without a header block`);
      return;
    }
    pending.fragments.push(payload);
    if ((flags & Flag.END_HEADERS) === 0) return;
    this.#headerBlock = undefined;
    this.#headerBlockDone(streamId, pending.endStream, Buffer.concat(pending.fragments));
  }

  #headerBlockDone(streamId: number, endStream: boolean, block: Buffer): void {
    let fields: [string, string][];
    try {
      // Every block is decoded, even for streams already forgotten: HPACK's table is shared by the connection.
      fields = this.#decoder.decode(block);
    } catch (error) {
      this.#protocolFailure(ErrorCode.COMPRESSION_ERROR, `undecodable header block on stream ${streamId}: ${(error as Error).message}`);
      return;
    }
    this.#keepalive.responded();
    const state = this.#streams.get(streamId);
    if (state === undefined) return;
    state.listener.headers(fields, endStream);
    if (endStream && this.#streams.get(streamId) === state) this.#finish(state, undefined, true);
  }

  #reset(streamId: number, payload: Buffer): void {
    const state = this.#streams.get(streamId);
    if (state === undefined || payload.byteLength !== 4) return;
    const code = payload.readUInt32BE(0);
    this.#finish(state, new Error(`etcd reset the stream of ${state.path} (HTTP/2 error code ${code})`), false);
  }

  #settings(flags: number, payload: Buffer): void {
    if ((flags & Flag.ACK) !== 0) return;
    if (payload.byteLength % 6 !== 0) {
      this.#protocolFailure(ErrorCode.FRAME_SIZE_ERROR, `a SETTINGS frame of ${payload.byteLength} bytes`);
      return;
    }
    for (let at = 0; at < payload.byteLength; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW_BYTES) {
          this.#protocolFailure(ErrorCode.FLOW_CONTROL_ERROR, `SETTINGS_INITIAL_WINDOW_SIZE ${value} is too large`);
          return;
        }
        const delta = value - this.#peerInitialWindow;
        this.#peerInitialWindow = value;
        for (const state of this.#streams.values()) state.sendWindow += delta;
      } else if (id === Setting.MAX_FRAME_SIZE) {
        this.#peerMaxFrame = value;
      } else if (id === Setting.MAX_CONCURRENT_STREAMS) {
        this.#peerMaxStreams = value;
      }
    }
    this.#queue(frame(FrameType.SETTINGS, Flag.ACK, 0));
    if (!this.#connected) {
      this.#connected = true;
      clearTimeout(this.#dialTimer);
      this.#startWaiting();
    }
    this.#unblock();
  }

  #windowUpdate(streamId: number, payload: Buffer): void {
    if (payload.byteLength !== 4) {
      this.#protocolFailure(ErrorCode.FRAME_SIZE_ERROR, 'a WINDOW_UPDATE frame that is not 4 bytes');
      return;
    }
    const increment = payload.readUInt32BE(0) & MAX_STREAM_ID;
    if (streamId === 0) {
      this.#sendWindow += increment;
      this.#unblock();
      return;
    }
    const state = this.#streams.get(streamId);
    if (state === undefined) return;
    state.sendWindow += increment;
    this.#pump(state, undefined);
  }

  #unblock(): void {
    for (const state of [...this.#blocked]) this.#pump(state, undefined);
  }

  #goaway(payload: Buffer): void {
    if (payload.byteLength < 8) {
      this.#protocolFailure(ErrorCode.FRAME_SIZE_ERROR, 'a GOAWAY frame shorter than 8 bytes');
      return;
    }
    const lastStreamId = payload.readUInt32BE(0) & MAX_STREAM_ID;
    const code = payload.readUInt32BE(4);
    this.#retire();
    const why = `etcd is going away (HTTP/2 error code ${code}${payload.byteLength > 8 ? `: ${payload.subarray(8).toString('utf8')}` : ''})`;
    for (const state of [...this.#waiting]) state.listener.close(new StreamNotProcessedError(why));
    this.#waiting.length = 0;
    for (const state of [...this.#streams.values()]) {
      if (state.id > lastStreamId) this.#finish(state, new StreamNotProcessedError(why), false);
    }
    if (this.#streams.size === 0) this.#end();
  }

  #protocolFailure(code: number, message: string): void {
    if (this.#failure !== undefined) return;
    // A GOAWAY names the last stream the sender processed of those its peer opened: a client processes none.
    this.#queue(goawayFrame(0, code));
    this.#flush();
    this.#fail(new Error(`HTTP/2 connection to etcd failed: ${message}`));
  }

  /** The connection is unusable: every stream fails with `error`, and the socket goes. */
  #fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#stopTimers();
    this.#retire();
    this.#socket.destroy();
    const streams = [...this.#streams.values(), ...this.#waiting];
    this.#streams.clear();
    this.#waiting.length = 0;
    this.#blocked.clear();
    // Nothing reached the server from a stream never started, or over a connection that never came up.
    for (const state of streams) {
      state.listener.close(state.id === 0 || !this.#connected ? new StreamNotProcessedError(error.message) : error);
    }
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

  /** With no stream left there is nothing more to read: once the last frames are out, the socket goes. */
  #end(): void {
    if (this.#failure !== undefined) return;
    this.#stopTimers();
    this.#flush();
    this.#socket.end(() => this.#socket.destroy());
  }

  /** Frames leave together at the end of the event-loop turn: one write for every call started in it. */
  #queue(bytes: Buffer): void {
    if (this.#outbound.length === 0) setImmediate(this.#flush);
    this.#outbound.push(bytes);
  }

  readonly #flush = (): void => {
    const out = this.#outbound;
    if (out.length === 0 || this.#socket.destroyed) return;
    this.#outbound = [];
    this.#socket.write(out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out));
  };
}
