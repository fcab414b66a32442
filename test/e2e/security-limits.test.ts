import assert from 'node:assert/strict';
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { bindRole, createNamespace, requestAs, waitForAccess } from '../support/security-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 6 item 6: the request body limit (3 MiB), max-in-flight (429 with Retry-After, watches exempt) and the
// request timeout (504).

type Json = Record<string, any>;

const TOKEN = 'loader-token-77c1';
const USER = 'loader';
const NS = 'load';
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;
const LIMIT = 3 * 1024 * 1024;
const TOO_MANY = 'Too many requests, please try again later.\n';
const TIMEOUT_BODY = `${JSON.stringify({
  metadata: {},
  status: 'Failure',
  message: 'Timeout: request did not complete within the allotted timeout',
  reason: 'Timeout',
  details: {},
  code: 504,
})}\n`;

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** A request whose body is sent in parts, the rest only when asked: the server holds it for as long as it waits. */
interface OpenRequest {
  readonly response: Promise<RawResponse>;
  /** Sends the rest of the body. */
  finish(): void;
  abort(): void;
}

function openRequest(ts: TestServer, method: string, path: string, token: string, body: string, sentFirst: number): OpenRequest {
  assert.ok(ts.pki !== undefined);
  let req: ClientRequest | undefined;
  const response = new Promise<RawResponse>((resolve, reject) => {
    req = httpsRequest(
      new URL(path, ts.url),
      {
        method,
        ca: ts.pki?.caCert,
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(body.slice(0, sentFirst));
  });
  return {
    response,
    finish: () => req?.end(body.slice(sentFirst)),
    abort: () => req?.destroy(),
  };
}

/** A whole request with an exact Content-Length (the test server's helper streams bodies chunked). */
function sendWithLength(ts: TestServer, method: string, path: string, body: string): Promise<RawResponse> {
  const open = openRequest(ts, method, path, ts.adminToken ?? '', body, 0);
  open.finish();
  return open.response;
}

/** Fails instead of hanging when the server never answers. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function configMap(name: string, data: Json = { k: 'v' }): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data };
}

/** The JSON of a small ConfigMap padded with trailing spaces to exactly `size` bytes. */
function paddedConfigMap(name: string, size: number): string {
  const json = JSON.stringify(configMap(name));
  return json + ' '.repeat(size - Buffer.byteLength(json));
}

describe('request limits (issue 6, item 6)', () => {
  let ts: TestServer;

  before(async () => {
    ts = await startTestServer({
      secure: { tokens: { [TOKEN]: { name: USER, groups: [] } } },
      limits: { maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 },
    });
    await createNamespace(ts, NS);
    await bindRole(ts, NS, 'loader-edit', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: USER }]);
    await waitForAccess(ts, { user: USER, resourceAttributes: { namespace: NS, verb: 'create', resource: 'configmaps' } });
  });
  after(async () => {
    await ts.stop();
  });

  it('a body over 3 MiB is refused with 413 and the exact Status, declared or streamed; exactly 3 MiB is read', async () => {
    const expected = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Request entity too large: limit is ${LIMIT}`,
      reason: 'RequestEntityTooLarge',
      code: 413,
    };
    const declared = await sendWithLength(ts, 'POST', CONFIGMAPS, paddedConfigMap('declared', LIMIT + 1));
    assert.equal(declared.status, 413, declared.text);
    assert.deepEqual(JSON.parse(declared.text), expected);

    // Chunked: the size is only found while reading.
    const streamed = await ts.request('POST', CONFIGMAPS, paddedConfigMap('streamed', LIMIT + 1));
    assert.equal(streamed.status, 413, streamed.text);
    assert.deepEqual(streamed.json, expected);
    const update = await ts.request('PUT', `${CONFIGMAPS}/streamed`, paddedConfigMap('streamed', 4 * LIMIT));
    assert.equal(update.status, 413, update.text);

    for (const name of ['declared', 'streamed']) assert.equal((await ts.request('GET', `${CONFIGMAPS}/${name}`)).status, 404);

    const atLimit = await sendWithLength(ts, 'POST', CONFIGMAPS, paddedConfigMap('at-limit', LIMIT));
    assert.equal(atLimit.status, 201, atLimit.text.slice(0, 300));
  });

  it('max-in-flight: a held mutating request makes the next one 429 with Retry-After; reads, watches and system:masters pass', async () => {
    const body = JSON.stringify(configMap('slow-upload'));
    const held = openRequest(ts, 'POST', CONFIGMAPS, TOKEN, body, 10);
    try {
      // Dry runs: the probe writes nothing even if it gets in before the held request takes the place.
      const refused = await waitFor(
        async () => {
          const res = await requestAs(ts, TOKEN, 'POST', `${CONFIGMAPS}?dryRun=All`, configMap('probe'));
          return res.status === 429 ? res : undefined;
        },
        // On a loaded machine the held request may take seconds to reach its place; until then the probes pass.
        { timeoutMs: 15_000, what: 'a 429 while the upload is held' },
      );
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(refused.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(refused.text, TOO_MANY);
      for (const [method, path, payload] of [
        ['PATCH', `${CONFIGMAPS}/x`, { data: { a: 'b' } }],
        ['DELETE', `${CONFIGMAPS}/x`, undefined],
        [
          'POST',
          '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
          { spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' } } },
        ],
      ] as const) {
        const res = await requestAs(
          ts,
          TOKEN,
          method,
          path,
          payload,
          method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {},
        );
        assert.equal(res.status, 429, `${method} ${path}: ${res.text}`);
      }

      // Reads have their own budget.
      const list = await requestAs(ts, TOKEN, 'GET', CONFIGMAPS);
      assert.equal(list.status, 200, list.text);
      // system:masters is never refused.
      const admin = await ts.request('POST', CONFIGMAPS, configMap('by-admin'));
      assert.equal(admin.status, 201, admin.text);
    } finally {
      held.finish();
    }
    const done = await held.response;
    assert.equal(done.status, 201, done.text);
    // The place is given back when the held request completes.
    await waitFor(
      async () => {
        const res = await requestAs(ts, TOKEN, 'POST', CONFIGMAPS, configMap('after'));
        return res.status === 201 ? true : undefined;
      },
      { timeoutMs: 5000, what: 'the mutating place to be free again' },
    );
  });

  it('watches hold no place: many open watches and a list at once with a read-only budget of 1', async () => {
    const watches: OpenRequest[] = [];
    const opened: Promise<RawResponse>[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        // A watch is a GET; its response only ends when timeoutSeconds runs out.
        const w = startWatch(ts, `${CONFIGMAPS}?watch=true&timeoutSeconds=30`);
        watches.push(w.request);
        opened.push(w.headers);
      }
      for (const headers of await Promise.all(opened)) assert.equal(headers.status, 200);
      for (let i = 0; i < 3; i++) {
        const list = await requestAs(ts, TOKEN, 'GET', CONFIGMAPS);
        assert.equal(list.status, 200, list.text);
      }
    } finally {
      for (const w of watches) w.abort();
    }
  });
});

/** A watch as the limited user; resolves `headers` as soon as the response starts (the body keeps streaming). */
function startWatch(ts: TestServer, path: string): { request: OpenRequest; headers: Promise<RawResponse> } {
  let req: ClientRequest | undefined;
  const headers = new Promise<RawResponse>((resolve, reject) => {
    req = httpsRequest(
      new URL(path, ts.url),
      { method: 'GET', ca: ts.pki?.caCert, agent: false, headers: { Authorization: `Bearer ${TOKEN}` } },
      (res) => {
        res.on('error', () => {});
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
          return;
        }
        resolve({ status: 200, headers: res.headers, text: '' });
      },
    );
    req.on('error', reject);
    req.end();
  });
  headers.catch(() => {});
  return { request: { response: headers, finish: () => {}, abort: () => req?.destroy() }, headers };
}

describe('request timeout (issue 6, item 6)', () => {
  let ts: TestServer;

  before(async () => {
    ts = await startTestServer({ secure: {}, limits: { requestTimeoutMs: 400 } });
    await createNamespace(ts, NS);
  });
  after(async () => {
    await ts.stop();
  });

  it('a request still running at its deadline gets the timeout filter’s 504; a watch outlives it', async () => {
    const watch = await new Promise<{ events: string[]; close: () => void }>((resolve, reject) => {
      const events: string[] = [];
      const req = httpsRequest(
        new URL(`${CONFIGMAPS}?watch=true&timeoutSeconds=30`, ts.url),
        { ca: ts.pki?.caCert, agent: false, headers: { Authorization: `Bearer ${ts.adminToken}` } },
        (res) => {
          assert.equal(res.statusCode, 200);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => events.push(chunk));
          res.on('error', () => {});
          resolve({ events, close: () => req.destroy() });
        },
      );
      req.on('error', reject);
      req.end();
    });
    try {
      const stalled = openRequest(ts, 'POST', CONFIGMAPS, ts.adminToken ?? '', JSON.stringify(configMap('stalled')), 5);
      const res = await within(stalled.response, 5000, 'a stalled upload past the 400 ms request timeout').finally(() => stalled.abort());
      assert.equal(res.status, 504, res.text);
      assert.equal(res.text, TIMEOUT_BODY);
      assert.equal((await ts.request('GET', `${CONFIGMAPS}/stalled`)).status, 404);

      // ?timeout= shortens the deadline, never lengthens it.
      const shortened = openRequest(ts, 'POST', `${CONFIGMAPS}?timeout=50ms`, ts.adminToken ?? '', JSON.stringify(configMap('short')), 5);
      const started = Date.now();
      const short = await within(shortened.response, 5000, 'a stalled upload past ?timeout=50ms').finally(() => shortened.abort());
      assert.equal(short.status, 504);
      assert.ok(Date.now() - started < 400, `answered after ${Date.now() - started} ms`);
      const bad = await ts.request('GET', `${CONFIGMAPS}?timeout=soon`);
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.json.message, 'invalid timeout specified in the request URL - time: invalid duration "soon"');

      // The watch was opened before both deadlines passed and still delivers.
      assert.equal((await ts.request('POST', CONFIGMAPS, configMap('seen'))).status, 201);
      await waitFor(() => (watch.events.join('').includes('"name":"seen"') ? true : undefined), {
        timeoutMs: 5000,
        what: 'the watch to deliver',
      });
    } finally {
      watch.close();
    }
  });
});
