import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StatusError } from '../../api/errors.js';

/** What a handler under test made of a request: its result, or the Status it threw. */
export interface Outcome {
  readonly status: number;
  readonly body: unknown;
}

/** Answers 200 with `{ result }`, or the thrown StatusError as its Status. */
export function respondWith(handle: (req: IncomingMessage) => unknown): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let status = 200;
    let body: unknown;
    try {
      body = { result: handle(req) ?? null };
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      status = err.code;
      body = err.toStatus();
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

export function readOutcome(res: IncomingMessage): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    res.on('error', reject);
  });
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends one real HTTP request (array header values go out as repeated header lines) and reports the outcome. */
export async function probe(handle: (req: IncomingMessage) => unknown, headers: OutgoingHttpHeaders, path = '/'): Promise<Outcome> {
  const server = createServer(respondWith(handle));
  try {
    const port = await listening(server);
    return await new Promise<Outcome>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => readOutcome(res).then(resolve, reject));
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.close();
  }
}
