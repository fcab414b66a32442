import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubServer {
  readonly url: string;
  /** Requests received, as "METHOD /path?query". */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A bare HTTP server answering with `handle`, for responses a real API server never gives (or gives only under failure). */
export async function startStubServer(handle: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<StubServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    Promise.resolve(handle(req, res)).catch((err: unknown) => {
      res.writeHead(599, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'Content-Type': contentType });
  res.end(JSON.stringify(body));
}
