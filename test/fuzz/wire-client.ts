import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';

// Raw HTTPS for the fuzz suite: paths, headers and bodies go out exactly as generated (no URL normalisation, no
// JSON encoding), and every way a request can end — an answer, a reset, a hang — is told apart.

export interface WireRequest {
  readonly method: string;
  /** Sent verbatim as the request target. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** A Content-Length larger than the body actually sent: the server must refuse it from the header alone. */
  readonly declaredLength?: number;
  /** Send the body with Transfer-Encoding: chunked instead of a Content-Length. */
  readonly chunked?: boolean;
}

export type WireOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: IncomingHttpHeaders;
      readonly body: Buffer;
      readonly cut: boolean;
    }
  /** The connection failed before a whole answer arrived (reset, hang-up, TLS error). */
  | { readonly kind: 'socket-error'; readonly code: string; readonly message: string }
  | { readonly kind: 'timeout'; readonly afterMs: number };

export interface WireClientOptions {
  readonly baseUrl: string;
  readonly ca: string;
  readonly maxSockets: number;
  /** A request without a whole answer by then is a hang. */
  readonly timeoutMs: number;
  /** Streams (watches) that stay open are read this long, then closed by us: staying open is their job. */
  readonly streamCutMs: number;
}

/** Bodies beyond this are not kept: invariants only look at their start. */
const MAX_KEPT_BYTES = 4 * 1024 * 1024;

export class WireClient {
  private readonly agent: Agent;
  private readonly url: URL;
  private readonly options: WireClientOptions;

  constructor(options: WireClientOptions) {
    this.options = options;
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets, ca: options.ca });
    this.url = new URL(options.baseUrl);
  }

  /**
   * Sends `request`. A failure on a kept-alive socket the server may have closed just before is retried once on a
   * fresh connection (the race every HTTP/1.1 client has); a failure there is the server's.
   */
  async send(request: WireRequest): Promise<WireOutcome> {
    // A body left unfinished must not leave its connection in the pool.
    if (request.declaredLength !== undefined) return (await this.sendOnce(request, false)).outcome;
    const first = await this.sendOnce(request, this.agent);
    if (first.outcome.kind === 'socket-error' && first.reused) return (await this.sendOnce(request, false)).outcome;
    return first.outcome;
  }

  close(): void {
    this.agent.destroy();
  }

  private sendOnce(request: WireRequest, agent: Agent | false): Promise<{ outcome: WireOutcome; reused: boolean }> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.chunked) headers['Transfer-Encoding'] = 'chunked';
    else if (request.body !== undefined) headers['Content-Length'] = String(request.declaredLength ?? request.body.length);
    if (request.declaredLength !== undefined && request.body === undefined) headers['Content-Length'] = String(request.declaredLength);
    const started = Date.now();
    return new Promise((resolve) => {
      let settled = false;
      let reused = false;
      const finish = (outcome: WireOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (request.declaredLength !== undefined) req.destroy();
        resolve({ outcome, reused });
      };
      const req = httpsRequest(
        {
          host: this.url.hostname,
          port: this.url.port,
          method: request.method,
          path: request.path,
          headers,
          agent,
          ca: this.options.ca,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          let cut = false;
          const streamTimer = setTimeout(() => {
            cut = true;
            res.destroy();
            finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), cut });
          }, this.options.streamCutMs);
          res.on('data', (chunk: Buffer) => {
            if (kept < MAX_KEPT_BYTES) chunks.push(chunk);
            kept += chunk.length;
          });
          res.on('end', () => {
            clearTimeout(streamTimer);
            finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), cut });
          });
          res.on('error', (err: NodeJS.ErrnoException) => {
            clearTimeout(streamTimer);
            if (!cut) finish({ kind: 'socket-error', code: err.code ?? 'ERR', message: err.message });
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish({ kind: 'timeout', afterMs: Date.now() - started });
      }, this.options.timeoutMs);
      // A CONNECT answer arrives as 'connect', with the raw socket handed over: the status is all there is to check.
      req.on('connect', (res, socket) => {
        socket.destroy();
        finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), cut: true });
      });
      req.on('socket', () => {
        reused = req.reusedSocket;
      });
      req.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'socket-error', code: err.code ?? 'ERR', message: err.message }));
      if (request.declaredLength !== undefined) {
        // Only the start goes out: the server has all it needs to refuse from the header.
        req.write(request.body ?? Buffer.alloc(0));
        return;
      }
      if (request.chunked && request.body !== undefined) {
        // Several chunks, so the server meets the size only while streaming.
        const step = Math.max(1, Math.ceil(request.body.length / 4));
        for (let at = 0; at < request.body.length; at += step) req.write(request.body.subarray(at, at + step));
        req.end();
        return;
      }
      req.end(request.body);
    });
  }
}
