import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { UserInfo } from '../api/user.js';
import { parseRequestUrl } from '../api/request-url.js';
import { type AggregatorFixture, startAggregatorFixture, until } from './testing/fixture.js';

const ALICE: UserInfo = {
  name: 'alice',
  groups: ['developers', 'system:authenticated'],
  extra: { scopes: ['read', 'write'], 'example.com/team': ['blue'] },
};
const COLLECTION = '/apis/wardle.example.com/v1alpha1/namespaces/ns1/flunders';

interface Reply {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** The HTTP front as the server will wire it: requests under an aggregated group-version go to proxy(). */
function startFront(f: AggregatorFixture): Promise<Server> {
  const server = createServer((req, res) => {
    const [, apis, group = '', version = ''] = (req.url ?? '').split('?')[0]?.split('/') ?? [];
    if (apis !== 'apis' || !f.aggregator.serves(group, version)) {
      res.writeHead(404).end();
      return;
    }
    void f.aggregator.proxy(req, res, parseRequestUrl(req.url ?? '/'), ALICE, group, version);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function send(server: Server, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...headers, ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('proxying to an aggregated API server', () => {
  let f: AggregatorFixture;
  let front: Server;
  /** The availability probes run alongside; pick out the test's own requests. */
  const lastBy = (user: string) => f.backend.requests.filter((r) => r.user === user).at(-1);

  before(async () => {
    f = await startAggregatorFixture();
    await f.wireAll();
    await f.waitForCondition((c) => c.status === 'True', 'Available=True');
    front = await startFront(f);
  });
  after(async () => {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
    await f.close();
  });

  test('forwards method, path, sorted query and body, with the identity as X-Remote-* headers and no client credentials', async () => {
    const created = await send(
      front,
      'POST',
      COLLECTION,
      { Authorization: 'Bearer secret', 'Impersonate-User': 'mallory', 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' },
      { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'one' } },
    );
    assert.equal(created.status, 201);
    assert.equal(JSON.parse(created.body).metadata.namespace, 'ns1');
    const seen = lastBy('alice');
    assert.equal(seen?.method, 'POST');
    assert.equal(seen?.url, COLLECTION);
    assert.equal(seen?.user, 'alice');
    assert.deepEqual(seen?.groups, ['developers', 'system:authenticated']);
    assert.deepEqual(seen?.extra, { scopes: ['read', 'write'], 'example.com/team': ['blue'] });
    assert.equal(seen?.headers.authorization, undefined);
    assert.equal(seen?.headers['impersonate-user'], undefined);
    assert.equal(seen?.headers['x-remote-extra-example.com%2fteam'], 'blue');

    const listed = await send(front, 'GET', `${COLLECTION}?limit=5&labelSelector=a%3Db`);
    assert.equal(listed.status, 200);
    assert.equal(JSON.parse(listed.body).kind, 'FlunderList');
    assert.equal(lastBy('alice')?.url, `${COLLECTION}?labelSelector=a%3Db&limit=5`);
  });

  test('backend errors come back as the backend wrote them', async () => {
    const missing = await send(front, 'GET', `${COLLECTION}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).message, 'flunders.wardle.example.com "nope" not found');
  });

  test('a watch streams events as they happen and ends when the client goes away', async () => {
    const { port } = front.address() as AddressInfo;
    const lines: string[] = [];
    const req = request({ host: '127.0.0.1', port, path: `${COLLECTION}?watch=true&resourceVersion=1` });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
      req.end();
    });
    assert.equal(response.statusCode, 200);
    let pending = '';
    response.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l !== ''));
    });
    response.on('error', () => undefined);
    await send(
      front,
      'POST',
      COLLECTION,
      {},
      { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'streamed' } },
    );
    await until(() => lines.some((l) => l.includes('"streamed"')), 'the ADDED event of "streamed"');
    const event = JSON.parse(lines.find((l) => l.includes('"streamed"')) ?? '{}');
    assert.equal(event.type, 'ADDED');
    req.destroy();
  });

  test('backend down: 503 with the dial error at once, then "service unavailable" once the APIService is unavailable (R8.14)', async () => {
    await f.backend.stop();
    try {
      const refused = await send(front, 'GET', COLLECTION);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['content-type'], 'text/plain; charset=utf-8');
      assert.match(refused.body, /^(dial tcp 127\.0\.0\.1:\d+: connect: connection refused|service unavailable)\n$/);
      await f.waitForCondition((c) => c.status === 'False', 'Available=False');
      const unavailable = await send(front, 'GET', '/apis/wardle.example.com/v1alpha1');
      assert.equal(unavailable.status, 503);
      assert.equal(unavailable.body, 'service unavailable\n');
    } finally {
      await f.backend.start();
      await f.waitForCondition((c) => c.status === 'True', 'Available=True again');
    }
    assert.equal((await send(front, 'GET', COLLECTION)).status, 200);
  });
});

describe('the sample server trusts identity headers only from the front proxy (requestheader authentication)', () => {
  test("the front-proxy certificate is believed; another CA's certificate, or none, is refused", async () => {
    const f = await startAggregatorFixture({ start: false });
    try {
      const ask = (cert: { cert: string; key: string } | undefined): Promise<number> =>
        new Promise((resolve, reject) => {
          const req = httpsRequest(
            {
              host: '127.0.0.1',
              port: f.backend.port,
              path: '/apis',
              ca: f.pki.servingCa,
              servername: 'api.wardle.svc',
              ...(cert === undefined ? {} : { cert: cert.cert, key: cert.key }),
              headers: { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' },
              agent: false,
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end();
        });
      assert.equal(await ask(f.pki.frontProxyClient), 200);
      assert.equal(await ask(f.pki.untrustedClient), 401);
      assert.equal(await ask(undefined), 401);
      assert.deepEqual(
        f.backend.requests.map((r) => r.user),
        ['mallory'],
      );
    } finally {
      await f.close();
    }
  });
});
