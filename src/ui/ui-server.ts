import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { notFoundPath, StatusError, toStatusError } from '../api/errors.js';
import type { HttpTransport } from '../client/http-transport.js';
import type { ApiClient } from '../client/interface.js';
import { explainAnswer, previewAnswer, whoAmI } from './answers.js';
import { isProxiedPath, proxyRead, writeStatus } from './api-proxy.js';
import { ClusterStream } from './cluster-stream.js';
import { serveAsset } from './static-assets.js';

/** explain and preview read the whole cluster once; past this the page gets a Timeout instead of waiting forever. */
const ANSWER_TIMEOUT_MS = 60_000;

export interface UiServerOptions {
  /** Reads the cluster for the stream and the explain/preview answers. */
  readonly client: ApiClient;
  /** The same credentials, for the /api and /apis read proxy. */
  readonly transport: HttpTransport;
  readonly port: number;
}

export interface UiServer {
  readonly url: string;
  close(): Promise<void>;
}

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StatusError(504, 'Timeout', `the answer took longer than ${ANSWER_TIMEOUT_MS / 1000}s`)),
      ANSWER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function answer(res: ServerResponse, work: Promise<unknown>): Promise<void> {
  try {
    const body = JSON.stringify(await withTimeout(work));
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  } catch (err) {
    writeStatus(res, toStatusError(err));
  }
}

export interface UiRoutesOptions {
  readonly client: ApiClient;
  /** Where the app is mounted: "" for `cascade ui`, "/ui" inside `cascade serve`. */
  readonly prefix: string;
}

/** The app's own routes under a prefix: its assets, the cluster stream and the explain/preview answers. */
export interface UiRoutes {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  /** Pages holding the cluster stream open. */
  readonly openStreams: number;
  close(): Promise<void>;
}

export function createUiRoutes(options: UiRoutesOptions): UiRoutes {
  const stream = new ClusterStream(options.client);
  return {
    async handle(req, res, url) {
      if (req.method !== 'GET') return writeStatus(res, new StatusError(405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed`));
      const path = url.pathname.slice(options.prefix.length);
      switch (path) {
        case '/ui-api/stream':
          return stream.serve(res);
        case '/ui-api/whoami':
          return answer(res, whoAmI(options.client));
        case '/ui-api/explain':
          return answer(res, explainAnswer(options.client, url.searchParams));
        case '/ui-api/preview':
          return answer(res, previewAnswer(options.client, url.searchParams));
      }
      if (await serveAsset(res, path.slice(1))) return;
      writeStatus(res, notFoundPath());
    },
    get openStreams() {
      return stream.openStreams;
    },
    close: () => stream.close(),
  };
}

/**
 * `cascade ui`: the web app on loopback with a read-only proxy to the cluster. Only requests addressed to the
 * loopback name it listens on are served, so a web site cannot reach the proxy through DNS rebinding.
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const routes = createUiRoutes({ client: options.client, prefix: '' });
  let allowedHosts: ReadonlySet<string> = new Set();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      writeStatus(
        res,
        new StatusError(
          403,
          'Forbidden',
          `host ${JSON.stringify(req.headers.host ?? '')} is not allowed: use ${[...allowedHosts][0] ?? ''}`,
        ),
      );
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (isProxiedPath(url.pathname)) return proxyRead(options.transport, req, res, url);
    return routes.handle(req, res, url);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => writeStatus(res, toStatusError(err)));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await routes.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
