import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { StorageUnavailableError } from '../errors.js';
import { createEtcdBackend } from './backend.js';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('etcd backend failures (issue 25)', () => {
  it('reports an etcd it cannot reach as StorageUnavailableError with the cause, within the call deadline', async () => {
    const backend = createEtcdBackend({
      endpoints: [`http://127.0.0.1:${await closedPort()}`],
      compactIntervalMs: 0,
      callTimeoutMs: 3_000,
    });
    try {
      const started = Date.now();
      for (const call of [
        () => backend.create('/registry/configmaps/ns/a', Buffer.from('v')),
        () => backend.get('/registry/configmaps/ns/a'),
      ]) {
        await assert.rejects(call(), (error: unknown) => {
          assert.ok(error instanceof StorageUnavailableError, String(error));
          assert.match(error.message, /ECONNREFUSED/);
          assert.ok(error.cause instanceof Error);
          return true;
        });
      }
      assert.ok(Date.now() - started < 6_500, `took ${Date.now() - started} ms`);
    } finally {
      await backend.close();
    }
  });
});
