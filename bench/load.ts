import { connect, type Socket } from 'node:net';
import { startApiServer } from '../src/server/api-server.js';
import type { Backend } from '../src/storage/backend.js';

/** The create load every throughput figure uses: connections, duration per round, target collection and body. */
export const CREATE_CONCURRENCY = 32;
export const CREATE_LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 4000);
export const CONFIGMAPS_PATH = '/api/v1/namespaces/default/configmaps';

export const configMapBody = (i: number): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bench-${i}` }, data: { key: 'value', index: String(i) } });

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly failures: number;
}

/**
 * Sends POSTs over `concurrency` keep-alive connections for `durationMs`, one request in flight per connection.
 * It writes HTTP/1.1 by hand and parses only the status line and Content-Length: node's http client costs more
 * CPU than a bare server on the same two cores, and would measure itself instead of the server.
 */
export function postLoad(options: {
  url: string;
  path: string;
  concurrency: number;
  durationMs: number;
  expectStatus: number;
  body: (i: number) => string;
}): Promise<LoadResult> {
  return requestLoad({ ...options, method: 'POST', path: () => options.path, contentType: 'application/json' });
}

/** postLoad's load with any method, content type and a target per request (e.g. PATCHes spread over objects). */
export async function requestLoad(options: {
  url: string;
  method: string;
  path: (i: number) => string;
  contentType: string;
  concurrency: number;
  durationMs: number;
  expectStatus: number;
  body: (i: number) => string;
}): Promise<LoadResult> {
  const target = new URL(options.url);
  let next = 0;
  let ok = 0;
  let failures = 0;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  const request = (): string => {
    const i = next++;
    const body = options.body(i);
    return `${options.method} ${options.path(i)} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: ${options.contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      const socket: Socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      let buffer: Buffer = Buffer.alloc(0);
      socket.on('connect', () => socket.write(request()));
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const headerEnd = buffer.indexOf('\r\n\r\n');
          if (headerEnd < 0) return;
          const head = buffer.subarray(0, headerEnd).toString('latin1');
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? '0');
          if (buffer.length < headerEnd + 4 + length) return;
          const status = Number(head.slice(9, 12));
          if (status === options.expectStatus) ok++;
          else failures++;
          buffer = buffer.subarray(headerEnd + 4 + length);
          if (performance.now() >= deadline) {
            socket.end();
            return;
          }
          socket.write(request());
        }
      });
      socket.on('close', () => resolve());
      socket.on('error', () => {
        failures++;
        resolve();
      });
    });
  await Promise.all(Array.from({ length: options.concurrency }, connection));
  const seconds = (performance.now() - started) / 1000;
  return { requests: ok, seconds, perSecond: ok / seconds, failures };
}

/** What a throughput round measured: creates per second and the requests that failed. */
export interface Measured {
  readonly perSecond: number;
  readonly failures: number;
}

/** Creates/s of a server started in this process on `backend`, driven like every create figure. */
export async function measureInProcessCreates(backend: Backend, durationMs: number): Promise<Measured> {
  const server = await startApiServer({ backend, port: 0 });
  try {
    const load = await postLoad({
      url: server.url,
      path: CONFIGMAPS_PATH,
      concurrency: CREATE_CONCURRENCY,
      durationMs,
      expectStatus: 201,
      body: configMapBody,
    });
    return { perSecond: load.perSecond, failures: load.failures };
  } finally {
    await server.close();
  }
}
