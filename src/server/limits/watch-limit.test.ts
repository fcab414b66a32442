import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { eventually, listen, send } from './test-http.js';
import { createWatchLimiter, DEFAULT_MAX_WATCHES } from './watch-limit.js';

describe('open watch cap', () => {
  it('defaults to 10000 watches', () => {
    assert.equal(DEFAULT_MAX_WATCHES, 10_000);
    assert.equal(createWatchLimiter().open, 0);
  });

  it('answers 429 like the in-flight filter while the cap is reached, and frees a place when a watch closes', async () => {
    const watches = createWatchLimiter(1);
    const server = await listen((_req, res) => {
      if (!watches.admit(res)) return;
      // A watch: headers and an event, then the stream stays open.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
    });
    try {
      const first = httpRequest({ host: '127.0.0.1', port: server.port, path: '/', agent: false });
      first.on('error', () => {});
      first.end();
      await eventually(() => watches.open === 1, 'the first watch');
      const refused = await send(server.port);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.body, 'Too many requests, please try again later.\n');
      first.destroy();
      await eventually(() => watches.open === 0, 'the closed watch to give its place back');
      const second = httpRequest({ host: '127.0.0.1', port: server.port, path: '/', agent: false });
      second.on('error', () => {});
      const status = new Promise<number>((resolve) => second.on('response', (res) => resolve(res.statusCode ?? 0)));
      second.end();
      assert.equal(await status, 200);
      second.destroy();
    } finally {
      await server.close();
    }
  });
});
