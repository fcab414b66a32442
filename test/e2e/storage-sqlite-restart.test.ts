import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ApiServer, startApiServer } from '../../src/server/api-server.js';
import type { Backend } from '../../src/storage/backend.js';
import { createSqliteBackend, DatabaseInUseError } from '../../src/storage/sqlite/backend.js';
import { type CustomKind, crCollectionPath, crdApi, crdFor, customResource, crPath, isEstablished } from '../support/crd-fixtures.js';
import { type Json, startWatch } from '../support/gc-fixtures.js';
import { waitFor } from '../../src/embed/index.js';
import type { TestServer } from '../support/test-server.js';

const NS = 'persist';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const GADGET: CustomKind = { group: 'restart.example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true };
const GADGET_CRD = `${GADGET.plural}.${GADGET.group}`;

interface Running {
  readonly server: ApiServer;
  readonly backend: Backend;
  readonly request: TestServer['request'];
}

async function start(path: string, options: { compactIntervalMs?: number; retainRevisions?: number } = {}): Promise<Running> {
  const backend = createSqliteBackend({ path, ...options });
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

/**
 * Issue 7's restart acceptance on SQLite: objects, their uid and resourceVersion, CRDs and custom resources survive a
 * stop and start on the same file, and a watch resumes from a resourceVersion served before the restart (or gets
 * 410 Expired once compaction has passed it). The cases run in order on one file, each starting a new server on it.
 */
describe('SQLite storage across an API server restart', () => {
  let dir: string;
  let path: string;
  let createdConfigMaps: Json[];
  let widget: Json;
  let rvBeforeLastWrites: string;
  let lastUpdate: Json;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cascade-sqlite-e2e-'));
    path = join(dir, 'cascade.db');
    const first = await start(path);
    try {
      await ok(first, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      createdConfigMaps = [];
      for (const name of ['alpha', 'beta', 'gamma']) {
        createdConfigMaps.push(await ok(first, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { name } }));
      }
      await crdApi(first).createEstablished(crdFor(GADGET));
      widget = await crdApi(first).create(GADGET, customResource(GADGET, NS, 'g1', { spec: { size: 3 } }));
      rvBeforeLastWrites = widget.metadata.resourceVersion;
      lastUpdate = await ok(first, 'PUT', `${CMS}/alpha`, { ...createdConfigMaps[0], data: { name: 'alpha', changed: 'yes' } });
      await ok(first, 'DELETE', `${CMS}/gamma`);
    } finally {
      await first.server.close();
    }
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves every object again with the same uid and resourceVersion, and the CRD and its instances', async () => {
    const second = await start(path);
    try {
      const list = await ok(second, 'GET', CMS);
      assert.deepEqual(
        (list.items as Json[]).map(identity),
        [identity(lastUpdate), identity(createdConfigMaps[1] as Json)],
        'alpha as last updated, beta as created, gamma stays deleted',
      );
      assert.equal((await ok(second, 'GET', `${CMS}/alpha`)).data.changed, 'yes');
      assert.equal((await second.request('GET', `${CMS}/gamma`)).status, 404);

      const crd = await crdApi(second).waitForCrd(GADGET_CRD, isEstablished, 'the CRD to be Established again');
      assert.ok(crd.metadata.uid);
      const served = await waitFor(
        async () => {
          const res = await second.request('GET', crPath(GADGET, NS, 'g1'));
          return res.status === 200 ? (res.json as Json) : undefined;
        },
        { timeoutMs: 5000, what: 'the custom resource to be served again' },
      );
      assert.deepEqual(identity(served), identity(widget));
      assert.deepEqual(served.spec, { size: 3 });
      await crdApi(second).create(GADGET, customResource(GADGET, NS, 'g2'));
      assert.equal(((await ok(second, 'GET', crCollectionPath(GADGET, NS))).items as Json[]).length, 2);
    } finally {
      await second.server.close();
    }
  });

  it('resumes a watch from a resourceVersion handed out before the restart', async () => {
    const third = await start(path);
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

  it('answers a watch from before the compact revision with 410 Expired, after a restart too', async () => {
    const compacting = await start(path, { compactIntervalMs: 20, retainRevisions: 1 });
    try {
      await ok(compacting, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'push-history' } });
      const current = await compacting.backend.currentRevision();
      await waitFor(async () => ((await compacting.backend.compactedRevision()) >= current ? true : undefined), {
        timeoutMs: 5000,
        what: 'compaction',
      });
    } finally {
      await compacting.server.close();
    }
    const fourth = await start(path);
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

  it('refuses a second server on the same file while the first runs', async () => {
    const running = await start(path);
    try {
      assert.throws(() => createSqliteBackend({ path }), DatabaseInUseError);
    } finally {
      await running.server.close();
    }
  });
});
