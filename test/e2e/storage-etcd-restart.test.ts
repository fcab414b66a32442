import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ApiServer, startApiServer } from '../../src/server/api-server.js';
import type { Backend } from '../../src/storage/backend.js';
import { createEtcdBackend } from '../../src/storage/etcd/backend.js';
import { type EtcdServer, etcdUnavailableReason, startEtcd } from '../support/etcd-server.js';
import { type Json, startWatch } from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import type { TestServer } from '../support/test-server.js';

const NS = 'persist';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

interface Running {
  readonly server: ApiServer;
  readonly backend: Backend;
  readonly request: TestServer['request'];
}

async function start(endpoint: string, prefix: string): Promise<Running> {
  const backend = createEtcdBackend({ endpoints: [endpoint], prefix });
  const server = await startApiServer({ backend, port: 0, bookmarkIntervalMs: 200 });
  return {
    server,
    backend,
    async request(method, requestPath, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { 'Content-Type': 'application/json', ...headers };
      }
      const res = await fetch(`${server.url}${requestPath}`, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, json: text === '' ? undefined : JSON.parse(text), text };
    },
  };
}

async function ok(running: Running, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await running.request(method, path, body);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json as Json;
}

const identity = (obj: Json): [string, string, string] => [obj.metadata.name, obj.metadata.uid, obj.metadata.resourceVersion];

const unavailable = etcdUnavailableReason();
if (unavailable !== undefined) console.log(`# etcd e2e tests skipped: ${unavailable}`);

/**
 * Issue 7's restart acceptance on etcd: objects keep their uid and resourceVersion across a restart of both the
 * API server and etcd (on the same data directory), watches resume from an old resourceVersion or get 410 once
 * compaction passed it, and two API servers on one etcd see each other's writes (item 5, without leader election).
 */
describe('etcd storage across API server and etcd restarts', { skip: unavailable ?? false }, () => {
  const prefix = '/cascade-restart';
  let dataDir: string;
  let etcd: EtcdServer;
  let createdConfigMaps: Json[];
  let rvBeforeLastWrites: string;
  let lastUpdate: Json;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cascade-etcd-e2e-'));
    etcd = await startEtcd({ dataDir });
    const first = await start(etcd.endpoint, prefix);
    try {
      await ok(first, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      createdConfigMaps = [];
      for (const name of ['alpha', 'beta', 'gamma']) {
        createdConfigMaps.push(await ok(first, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { name } }));
      }
      rvBeforeLastWrites = (createdConfigMaps[2] as Json).metadata.resourceVersion;
      lastUpdate = await ok(first, 'PUT', `${CMS}/alpha`, { ...createdConfigMaps[0], data: { name: 'alpha', changed: 'yes' } });
      await ok(first, 'DELETE', `${CMS}/gamma`);
    } finally {
      await first.server.close();
    }
    // The etcd goes down too and comes back on the same data directory (on new ports).
    await etcd.stop();
    etcd = await startEtcd({ dataDir });
  });

  after(async () => {
    await etcd.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves every object again with the same uid and resourceVersion', async () => {
    const second = await start(etcd.endpoint, prefix);
    try {
      const list = await ok(second, 'GET', CMS);
      assert.deepEqual(
        (list.items as Json[]).map(identity),
        [identity(lastUpdate), identity(createdConfigMaps[1] as Json)],
        'alpha as last updated, beta as created, gamma stays deleted',
      );
      assert.ok(Number(list.metadata.resourceVersion) > Number(lastUpdate.metadata.resourceVersion), 'the list is at etcd revision');
      assert.equal((await ok(second, 'GET', `${CMS}/alpha`)).data.changed, 'yes');
      assert.equal((await second.request('GET', `${CMS}/gamma`)).status, 404);
      const exact = await ok(second, 'GET', `${CMS}?resourceVersion=${rvBeforeLastWrites}&resourceVersionMatch=Exact`);
      assert.deepEqual(
        (exact.items as Json[]).map((item) => item.metadata.name),
        ['alpha', 'beta', 'gamma'],
        'a list at a resourceVersion from before the restart shows that state',
      );
    } finally {
      await second.server.close();
    }
  });

  it('resumes a watch from a resourceVersion handed out before the restart', async () => {
    const third = await start(etcd.endpoint, prefix);
    try {
      const watch = await startWatch(`${third.server.url}${CMS}?watch=true&resourceVersion=${rvBeforeLastWrites}`);
      try {
        const fresh = await ok(third, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-restart' } });
        await waitFor(() => (watch.events.some((e) => e.object?.metadata?.name === 'after-restart') ? true : undefined), {
          timeoutMs: 5000,
          what: 'the new event',
        });
        const events = watch.events.filter((e) => e.type !== 'BOOKMARK');
        assert.deepEqual(
          events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]),
          [
            ['MODIFIED', 'alpha', lastUpdate.metadata.resourceVersion],
            ['DELETED', 'gamma', events[1]?.object.metadata.resourceVersion],
            ['ADDED', 'after-restart', fresh.metadata.resourceVersion],
          ],
        );
        assert.ok(Number(events[1]?.object.metadata.resourceVersion) > Number(lastUpdate.metadata.resourceVersion));
      } finally {
        await watch.stop();
      }
    } finally {
      await third.server.close();
    }
  });

  it('answers a watch and an exact list from before the compact revision with 410 Expired', async () => {
    const compacting = await start(etcd.endpoint, prefix);
    try {
      await ok(compacting, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'push-history' } });
      await compacting.backend.compact(await compacting.backend.currentRevision());
    } finally {
      await compacting.server.close();
    }
    const fourth = await start(etcd.endpoint, prefix);
    try {
      const watch = await startWatch(`${fourth.server.url}${CMS}?watch=true&resourceVersion=${rvBeforeLastWrites}`);
      try {
        const error = await waitFor(() => watch.events.find((e) => e.type === 'ERROR'), { timeoutMs: 5000, what: 'the ERROR event' });
        assert.equal(error.object.code, 410);
        assert.equal(error.object.reason, 'Expired');
      } finally {
        await watch.stop();
      }
      const list = await fourth.request('GET', `${CMS}?resourceVersion=${rvBeforeLastWrites}&resourceVersionMatch=Exact`);
      assert.equal(list.status, 410, list.text);
      const names = ((await ok(fourth, 'GET', CMS)).items as Json[]).map((item) => item.metadata.name);
      assert.deepEqual(names, ['after-restart', 'alpha', 'beta', 'push-history'], 'compaction kept every live object');
    } finally {
      await fourth.server.close();
    }
  });
});

describe('two API servers on one etcd', { skip: unavailable ?? false }, () => {
  const prefix = '/cascade-ha';
  let etcd: EtcdServer;
  let one: Running;
  let two: Running;

  before(async () => {
    etcd = await startEtcd();
    one = await start(etcd.endpoint, prefix);
    two = await start(etcd.endpoint, prefix);
    await ok(one, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });

  after(async () => {
    await one?.server.close();
    await two?.server.close();
    await etcd.stop();
  });

  it('delivers a write on either server to a watch on the other, with the same uid and resourceVersion', async () => {
    const listed = await ok(two, 'GET', CMS);
    const onTwo = await startWatch(`${two.server.url}${CMS}?watch=true&resourceVersion=${listed.metadata.resourceVersion}`);
    const onOne = await startWatch(`${one.server.url}${CMS}?watch=true&resourceVersion=${listed.metadata.resourceVersion}`);
    try {
      const created = await ok(one, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { v: '1' } });
      const added = await waitFor(() => onTwo.events.find((e) => e.type === 'ADDED' && e.object.metadata.name === 'shared'), {
        timeoutMs: 5000,
        what: 'ADDED on server two',
      });
      assert.deepEqual(identity(added.object), identity(created));

      const updated = await ok(two, 'PUT', `${CMS}/shared`, { ...created, data: { v: '2' } });
      const modified = await waitFor(() => onOne.events.find((e) => e.type === 'MODIFIED' && e.object.metadata.name === 'shared'), {
        timeoutMs: 5000,
        what: 'MODIFIED on server one',
      });
      assert.deepEqual(identity(modified.object), identity(updated));
      assert.equal(modified.object.data.v, '2');

      const stale = await one.request('PUT', `${CMS}/shared`, { ...created, data: { v: 'stale' } });
      assert.equal(stale.status, 409, 'an update with the resourceVersion server two replaced conflicts on server one');

      await ok(two, 'DELETE', `${CMS}/shared`);
      await waitFor(() => onOne.events.find((e) => e.type === 'DELETED' && e.object.metadata.name === 'shared'), {
        timeoutMs: 5000,
        what: 'DELETED on server one',
      });
      assert.equal((await one.request('GET', `${CMS}/shared`)).status, 404);
    } finally {
      await onOne.stop();
      await onTwo.stop();
    }
  });
});
