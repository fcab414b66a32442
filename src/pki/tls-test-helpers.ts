import { once } from 'node:events';
import { createServer, request } from 'node:https';
import type { RequestOptions, Server, ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** What the test server saw of the client's TLS identity, echoed back as JSON. */
export interface PeerReport {
  readonly authorized: boolean;
  readonly authorizationError: string | null;
  readonly subject: Record<string, string | string[] | undefined> | null;
}

export async function startEchoServer(options: ServerOptions, host: string): Promise<{ server: Server; port: number }> {
  const server = createServer(options, (req, res) => {
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    const report: PeerReport = {
      authorized: socket.authorized,
      authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
      subject: peer && Object.keys(peer).length > 0 ? { ...peer.subject } : null,
    };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(report));
  });
  server.listen(0, host);
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export function getJson(options: RequestOptions): Promise<PeerReport> {
  return new Promise((resolve, reject) => {
    const req = request({ agent: false, path: '/', method: 'GET', ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as PeerReport));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
