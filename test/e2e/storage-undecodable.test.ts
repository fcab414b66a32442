import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ApiServer, startApiServer } from '../../src/server/api-server.js';
import { createSqliteBackend } from '../../src/storage/sqlite/backend.js';

const BAD_CONFIGMAP = '/registry/configmaps/default/bad';
const BAD_SECRET = '/registry/secrets/default/bad';
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

interface Reply {
  readonly status: number;
  readonly json: { code?: number; reason?: string; message?: string; items?: unknown[] };
}

/**
 * A stored value the server cannot decode (written by another program, damaged on disk) answers as kube-apiserver
 * answers it — 500 InternalError for the reads that meet it — and nothing more: the server still starts and becomes
 * ready (the controllers whose informers cannot list wait, as kube-controller-manager's do), other resources and other
 * objects' writes are served, and a watch that meets the value ends with the error instead of breaking the stream.
 */
describe('undecodable stored objects', () => {
  let dir: string;
  let server: ApiServer;
  let corruptRevision: number;

  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
    return { status: res.status, json: (await res.json()) as Reply['json'] };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cascade-undecodable-'));
    const path = join(dir, 'cascade.db');
    const writer = createSqliteBackend({ path });
    try {
      corruptRevision = (await writer.create(BAD_CONFIGMAP, encode('{not json'))).modRevision;
      await writer.create(BAD_SECRET, encode('{"kind":"Secret","metadata":5}'));
    } finally {
      await writer.close();
    }
    server = await startApiServer({ backend: createSqliteBackend({ path }), port: 0, controllerSyncWaitMs: 300 });
  });

  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is ready although controllers cannot list configmaps and secrets', async () => {
    const res = await fetch(`${server.url}/readyz`);
    assert.equal(res.status, 200);
  });

  it('answers 500 InternalError naming the key to a GET and a LIST that meet the value', async () => {
    const get = await call('GET', '/api/v1/namespaces/default/configmaps/bad');
    assert.equal(get.status, 500);
    assert.equal(get.json.reason, 'InternalError');
    assert.match(
      get.json.message ?? '',
      /^Internal error occurred: object not decodable: key \/registry\/configmaps\/default\/bad at revision \d+: /,
    );
    const list = await call('GET', '/api/v1/configmaps');
    assert.equal(list.status, 500);
    assert.equal(list.json.reason, 'InternalError');
    const secret = await call('GET', '/api/v1/namespaces/default/secrets/bad');
    assert.equal(secret.status, 500);
    assert.match(
      secret.json.message ?? '',
      /key \/registry\/secrets\/default\/bad at revision \d+: the stored value is not an object with object metadata$/,
    );
  });

  it('serves other resources and writes of other objects', async () => {
    const created = await call('POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fine' },
    });
    assert.equal(created.status, 201);
    const fine = await call('GET', '/api/v1/namespaces/default/configmaps/fine');
    assert.equal(fine.status, 200);
    const namespaces = await call('GET', '/api/v1/namespaces');
    assert.equal(namespaces.status, 200);
    assert.ok((namespaces.json.items ?? []).length >= 4);
  });

  it('ends a watch replaying the value with an ERROR event carrying the 500', async () => {
    const res = await fetch(`${server.url}/api/v1/configmaps?watch=1&resourceVersion=${corruptRevision - 1}&timeoutSeconds=10`);
    assert.equal(res.status, 200);
    const lines = (await res.text()).trim().split('\n');
    const last = JSON.parse(lines.at(-1) as string) as { type: string; object: { code: number; reason: string; message: string } };
    assert.equal(last.type, 'ERROR');
    assert.equal(last.object.code, 500);
    assert.equal(last.object.reason, 'InternalError');
    assert.match(last.object.message, /object not decodable: key \/registry\/configmaps\/default\/bad/);
  });
});
