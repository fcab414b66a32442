import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toStatusError } from '../api/errors.js';
import { MAX_REQUEST_BODY_BYTES, readBody } from './body.js';
import { listen, send } from './limits/test-http.js';
import { sendJson, sendStatusError } from './respond.js';

/** A server that reads the body the way the write handlers do and reports its size; `stored` counts accepted bodies. */
async function bodyServer(limit?: number) {
  const state = { stored: 0 };
  const server = await listen((req, res) => {
    readBody(req, limit).then(
      (body) => {
        state.stored++;
        sendJson(res, 200, { bytes: body.length });
      },
      (err: unknown) => sendStatusError(res, toStatusError(err)),
    );
  });
  return { server, state };
}

const TOO_LARGE = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Request entity too large: limit is 3145728',
  reason: 'RequestEntityTooLarge',
  code: 413,
};

describe('request body limit (limitedReadBody)', () => {
  it('is 3 MiB: a body of exactly the limit is read whole', async () => {
    assert.equal(MAX_REQUEST_BODY_BYTES, 3145728);
    const { server, state } = await bodyServer();
    try {
      const res = await send(server.port, { method: 'POST', body: Buffer.alloc(MAX_REQUEST_BODY_BYTES, 0x61) });
      assert.equal(res.status, 200);
      assert.deepEqual(JSON.parse(res.body), { bytes: MAX_REQUEST_BODY_BYTES });
      assert.equal(state.stored, 1);
    } finally {
      await server.close();
    }
  });

  it('refuses a Content-Length over the limit with 413 and closes the connection', async () => {
    const { server, state } = await bodyServer();
    try {
      const res = await send(server.port, { method: 'POST', body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x61) });
      assert.equal(res.status, 413);
      assert.deepEqual(JSON.parse(res.body), TOO_LARGE);
      assert.equal(res.headers.connection, 'close');
      assert.equal(state.stored, 0);
    } finally {
      await server.close();
    }
  });

  it('refuses a chunked body once it grows past the limit', async () => {
    const { server, state } = await bodyServer();
    try {
      const res = await send(server.port, {
        method: 'POST',
        headers: { 'Transfer-Encoding': 'chunked' },
        body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x61),
      });
      assert.equal(res.status, 413);
      assert.deepEqual(JSON.parse(res.body), TOO_LARGE);
      assert.equal(state.stored, 0);
    } finally {
      await server.close();
    }
  });

  it('takes the limit as an option', async () => {
    const { server } = await bodyServer(8);
    try {
      assert.equal((await send(server.port, { method: 'POST', body: '12345678' })).status, 200);
      const res = await send(server.port, { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' }, body: '123456789' });
      assert.equal(res.status, 413);
      assert.equal(JSON.parse(res.body).message, 'Request entity too large: limit is 8');
    } finally {
      await server.close();
    }
  });
});
