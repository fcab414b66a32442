import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connectionError, type RequestTarget, statusErrorFromResponse } from './http-errors.js';

/** How to reach and authenticate to one API server (the parts of a kubeconfig context the client uses). */
export interface HttpClientConfig {
  /** https://host:port or http://host:port, optionally with a path prefix. */
  readonly server: string;
  /** PEM certificate authority bundle for https servers. */
  readonly ca?: string | Buffer;
  readonly insecureSkipTLSVerify?: boolean;
  readonly token?: string;
  /** PEM client certificate and key, for client-certificate authentication. */
  readonly clientCert?: string | Buffer;
  readonly clientKey?: string | Buffer;
  /** Basic authentication. */
  readonly username?: string;
  readonly password?: string;
  readonly userAgent?: string;
}

export interface RequestSpec {
  readonly method: string;
  /** Absolute API path ("/api/v1/..."), without the server's path prefix. */
  readonly path: string;
  readonly query?: URLSearchParams;
  readonly accept?: string;
  readonly contentType?: string;
  readonly body?: unknown;
  /** For the message of a non-Status error. */
  readonly target?: RequestTarget;
}

export interface HttpResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

/** An open response whose body is read by the caller; abort() ends it. */
export interface OpenResponse {
  readonly message: IncomingMessage;
  abort(): void;
}

const DEFAULT_USER_AGENT = 'cascade-client';

/** HTTP(S) requests to one server over keep-alive connections, with authentication and Status error mapping. */
export class HttpTransport {
  readonly server: string;
  private readonly base: URL;
  private readonly prefix: string;
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly open = new Set<ClientRequest>();

  constructor(config: HttpClientConfig) {
    let base: URL;
    try {
      base = new URL(config.server);
    } catch {
      throw new Error(`invalid API server URL ${JSON.stringify(config.server)}`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new Error(`API server URL must be http or https, got ${config.server}`);
    this.server = config.server;
    this.base = base;
    this.prefix = base.pathname.replace(/\/+$/, '');
    if (base.protocol === 'https:') {
      this.agent = new HttpsAgent({
        keepAlive: true,
        ca: config.ca,
        cert: config.clientCert,
        key: config.clientKey,
        rejectUnauthorized: config.insecureSkipTLSVerify !== true,
      });
      this.send = httpsRequest as typeof httpRequest;
    } else {
      this.agent = new HttpAgent({ keepAlive: true });
      this.send = httpRequest;
    }
    const headers: Record<string, string> = { 'User-Agent': config.userAgent ?? DEFAULT_USER_AGENT };
    if (config.token !== undefined && config.token !== '') headers.Authorization = `Bearer ${config.token}`;
    else if (config.username !== undefined)
      headers.Authorization = `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`;
    this.headers = headers;
  }

  /** Sends a request and resolves with the whole response; non-2xx answers reject with a StatusError. */
  async request(spec: RequestSpec): Promise<HttpResponse> {
    const { message } = await this.start(spec);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of message) chunks.push(chunk as Buffer);
    } catch (err) {
      throw connectionError(this.server, err);
    }
    const response = { status: message.statusCode ?? 0, contentType: headerValue(message, 'content-type'), body: Buffer.concat(chunks) };
    if (response.status < 200 || response.status > 299) {
      throw statusErrorFromResponse(
        { ...response, retryAfter: headerValue(message, 'retry-after') || undefined },
        spec.method,
        spec.target,
      );
    }
    return response;
  }

  /** Starts a request whose successful body the caller streams (watch); a non-2xx answer rejects with a StatusError. */
  async stream(spec: RequestSpec): Promise<OpenResponse> {
    const opened = await this.start(spec);
    const status = opened.message.statusCode ?? 0;
    if (status >= 200 && status <= 299) return opened;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.message) chunks.push(chunk as Buffer);
    throw statusErrorFromResponse(
      {
        status,
        contentType: headerValue(opened.message, 'content-type'),
        retryAfter: headerValue(opened.message, 'retry-after') || undefined,
        body: Buffer.concat(chunks),
      },
      spec.method,
      spec.target,
    );
  }

  /** Ends open requests (watches included) and the pooled connections. */
  close(): void {
    for (const req of this.open) req.destroy();
    this.open.clear();
    this.agent.destroy();
  }

  private start(spec: RequestSpec): Promise<OpenResponse> {
    const url = new URL(this.base.href);
    url.pathname = `${this.prefix}${spec.path}`;
    url.search = spec.query === undefined ? '' : spec.query.toString();
    const headers: OutgoingHttpHeaders = { ...this.headers, Accept: spec.accept ?? 'application/json' };
    let payload: Buffer | undefined;
    if (spec.body !== undefined) {
      payload = Buffer.from(JSON.stringify(spec.body));
      headers['Content-Type'] = spec.contentType ?? 'application/json';
      headers['Content-Length'] = payload.length;
    }
    return new Promise((resolve, reject) => {
      const req = this.send(url, { method: spec.method, headers, agent: this.agent });
      this.open.add(req);
      req.once('close', () => this.open.delete(req));
      // Kept for the request's whole life: destroying a streaming request later may emit errors nobody awaits.
      req.on('error', (err) => reject(connectionError(this.server, err)));
      req.once('response', (message) => resolve({ message, abort: () => req.destroy() }));
      req.end(payload);
    });
  }
}

function headerValue(message: IncomingMessage, name: string): string {
  const value = message.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}
