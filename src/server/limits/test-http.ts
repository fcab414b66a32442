import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  readonly port: number;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 and a free port. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TestResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface TestRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string | number>;
  readonly body?: Buffer | string;
}

/** One request on a fresh connection; resolves with the whole response (errors after it has arrived are ignored). */
export function send(port: number, options: TestRequest = {}): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(options.body);
  });
}

/** Waits until `check` holds (the server sees a client's disconnect a moment after it happens). */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.fail(`timed out waiting for ${what}`);
}
