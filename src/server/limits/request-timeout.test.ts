import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { StatusError } from '../../api/errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeoutMs, withRequestTimeout } from './request-timeout.js';
import { eventually, listen, send } from './test-http.js';

const query = (text: string): URLSearchParams => new URLSearchParams(text);

describe('request deadline (WithRequestDeadline)', () => {
  it('is the server’s --request-timeout (1m by default), shortened but never lengthened by ?timeout=', () => {
    assert.equal(DEFAULT_REQUEST_TIMEOUT_MS, 60_000);
    assert.equal(requestTimeoutMs(query('')), 60_000);
    assert.equal(requestTimeoutMs(query('timeout=')), 60_000);
    assert.equal(requestTimeoutMs(query('timeout=30s')), 30_000);
    assert.equal(requestTimeoutMs(query('timeout=250ms&timeout=5s')), 250);
    assert.equal(requestTimeoutMs(query('timeout=2m')), 60_000);
    assert.equal(requestTimeoutMs(query('timeout=0s')), 60_000);
    assert.equal(requestTimeoutMs(query('timeout=-5s')), 60_000);
    assert.equal(requestTimeoutMs(query('timeout=10s'), 5000), 5000);
  });

  it('refuses a malformed ?timeout= with 400', () => {
    try {
      requestTimeoutMs(query('timeout=invalid'));
      assert.fail('expected a 400');
    } catch (err) {
      assert.ok(err instanceof StatusError);
      assert.deepEqual(err.toStatus(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'invalid timeout specified in the request URL - time: invalid duration "invalid"',
        reason: 'BadRequest',
        code: 400,
      });
    }
  });
});

describe('request timeout (WithTimeoutForNonLongRunningRequests)', () => {
  it('answers 504 with the bare Status when nothing was written in time, and drops the late answer', async () => {
    let timedOut = 0;
    let lateWrite: unknown;
    const server = await listen((_req, res) => {
      withRequestTimeout(res, 30, () => timedOut++);
      setTimeout(() => {
        try {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{}');
        } catch (err) {
          lateWrite = err;
        }
      }, 80);
    });
    try {
      const res = await send(server.port, { path: '/api/v1/pods' });
      assert.equal(res.status, 504);
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(
        res.body,
        '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n',
      );
      assert.equal(timedOut, 1);
      await eventually(() => lateWrite !== undefined, 'the late answer');
      assert.equal((lateWrite as { code?: string }).code, 'ERR_HTTP_HEADERS_SENT');
    } finally {
      await server.close();
    }
  });

  it('cuts the connection when the response had already started', async () => {
    let timedOut = 0;
    const server = await listen((_req, res) => {
      withRequestTimeout(res, 30, () => timedOut++);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"items":[');
    });
    try {
      const outcome = await new Promise<string>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port: server.port, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve('complete'));
          res.on('aborted', () => resolve('aborted'));
          res.on('error', () => resolve('aborted'));
        });
        req.on('error', () => resolve('aborted'));
        req.end();
      });
      assert.equal(outcome, 'aborted');
      assert.equal(timedOut, 1);
    } finally {
      await server.close();
    }
  });

  it('disarms itself when the response is done in time, and on demand', async () => {
    let timedOut = 0;
    const server = await listen((req, res) => {
      const disarm = withRequestTimeout(res, 40, () => timedOut++);
      if (req.url === '/disarm') {
        disarm();
        setTimeout(() => res.end('slow but allowed'), 80);
        return;
      }
      res.end('quick');
    });
    try {
      assert.equal((await send(server.port)).body, 'quick');
      assert.equal((await send(server.port, { path: '/disarm' })).body, 'slow but allowed');
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.equal(timedOut, 0);
    } finally {
      await server.close();
    }
  });
});
