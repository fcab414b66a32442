import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { SYSTEM_MASTERS } from '../../api/user.js';
import {
  createInFlightLimiter,
  DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT,
  DEFAULT_MAX_REQUESTS_IN_FLIGHT,
  type InFlightLimits,
} from './max-in-flight.js';
import { eventually, listen, send } from './test-http.js';

/**
 * Requests say their verb, long-running-ness and groups in headers; `/hold` requests stay open until `open()`.
 */
async function limitedServer(limits: InFlightLimits) {
  const limiter = createInFlightLimiter(limits);
  const held: (() => void)[] = [];
  const server = await listen((req, res) => {
    const groups = String(req.headers['x-groups'] ?? '')
      .split(',')
      .filter((g) => g !== '');
    const admitted = limiter.admit(res, {
      verb: String(req.headers['x-verb'] ?? 'get'),
      longRunning: req.headers['x-long-running'] === 'true',
      user: { name: 'u', groups },
    });
    if (!admitted) return;
    if (req.url === '/hold') held.push(() => res.end('done'));
    else res.end('ok');
  });
  const open = (): void => {
    for (const release of held.splice(0)) release();
  };
  return { limiter, server, held, open };
}

/** Sends a request the server holds open; resolves once it is held, with its eventual response. */
async function hold(port: number, verb: string, heldCount: () => number, expected: number): Promise<{ response: Promise<unknown> }> {
  const response = send(port, { path: '/hold', headers: { 'x-verb': verb } });
  await eventually(() => heldCount() === expected, 'the held request');
  return { response };
}

describe('max-in-flight limits (WithMaxInFlightLimit)', () => {
  it('defaults to 400 read-only and 200 mutating requests', () => {
    assert.equal(DEFAULT_MAX_REQUESTS_IN_FLIGHT, 400);
    assert.equal(DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT, 200);
  });

  it('answers 429 with Retry-After: 1 and Go’s plain-text message when the budget is spent', async () => {
    const { limiter, server, held, open } = await limitedServer({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
    try {
      const first = await hold(server.port, 'list', () => held.length, 1);
      assert.equal(limiter.readOnlyInFlight, 1);
      const refused = await send(server.port, { headers: { 'x-verb': 'get' } });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(refused.headers['x-content-type-options'], 'nosniff');
      assert.equal(refused.body, 'Too many requests, please try again later.\n');
      open();
      await first.response;
      await eventually(() => limiter.readOnlyInFlight === 0, 'the place to be given back');
      assert.equal((await send(server.port, { headers: { 'x-verb': 'get' } })).status, 200);
    } finally {
      open();
      await server.close();
    }
  });

  it('keeps separate budgets for read-only (get/list/watch) and mutating verbs', async () => {
    const { limiter, server, held, open } = await limitedServer({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
    try {
      const reading = await hold(server.port, 'get', () => held.length, 1);
      assert.equal((await send(server.port, { method: 'POST', headers: { 'x-verb': 'create' } })).status, 200);
      const writing = await hold(server.port, 'patch', () => held.length, 2);
      assert.equal(limiter.mutatingInFlight, 1);
      assert.equal((await send(server.port, { method: 'DELETE', headers: { 'x-verb': 'delete' } })).status, 429);
      // A non-resource HEAD has verb "head": it counts as mutating, as in kube-apiserver.
      assert.equal((await send(server.port, { method: 'HEAD', headers: { 'x-verb': 'head' } })).status, 429);
      assert.equal((await send(server.port, { headers: { 'x-verb': 'list' } })).status, 429);
      open();
      await Promise.all([reading.response, writing.response]);
    } finally {
      open();
      await server.close();
    }
  });

  it('lets long-running requests and system:masters through a full budget', async () => {
    const { limiter, server, held, open } = await limitedServer({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
    try {
      const first = await hold(server.port, 'get', () => held.length, 1);
      assert.equal((await send(server.port, { headers: { 'x-verb': 'watch', 'x-long-running': 'true' } })).status, 200);
      assert.equal(
        (await send(server.port, { headers: { 'x-verb': 'get', 'x-groups': `system:authenticated,${SYSTEM_MASTERS}` } })).status,
        200,
      );
      assert.equal(limiter.readOnlyInFlight, 1);
      open();
      await first.response;
    } finally {
      open();
      await server.close();
    }
  });

  it('treats a limit of 0 as no limit', async () => {
    const { limiter, server, held, open } = await limitedServer({ maxRequestsInFlight: 0, maxMutatingRequestsInFlight: 1 });
    try {
      const pending = [];
      for (let i = 1; i <= 5; i++) pending.push((await hold(server.port, 'list', () => held.length, i)).response);
      assert.equal(limiter.readOnlyInFlight, 5);
      open();
      await Promise.all(pending);
    } finally {
      open();
      await server.close();
    }
  });

  it('gives the place back, once, when the client goes away', async () => {
    const { limiter, server, held, open } = await limitedServer({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
    try {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/hold', headers: { 'x-verb': 'get' }, agent: false });
      req.on('error', () => {});
      req.end();
      await eventually(() => limiter.readOnlyInFlight === 1, 'the request to hold its place');
      req.destroy();
      await eventually(() => limiter.readOnlyInFlight === 0, 'the place to be given back');
      // The abandoned response finishing later must not give the place back a second time.
      open();
      const next = await hold(server.port, 'get', () => held.length, 1);
      assert.equal(limiter.readOnlyInFlight, 1);
      open();
      await next.response;
    } finally {
      open();
      await server.close();
    }
  });
});
