import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline for HTTP throughput: a bare node:http server that reads and parses the same JSON body Cascade
 * gets, and answers 201 with it. Prints its URL on stdout once listening.
 */
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    const obj = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const text = JSON.stringify(obj);
    res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
