import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type EtcdServer, etcdUnavailableReason, startEtcd } from '../../../test/support/etcd-server.js';
import { type ApiServer, startApiServer } from '../../server/api-server.js';
import type { Backend } from '../backend.js';
import { createEtcdBackend } from './backend.js';

const unavailable = etcdUnavailableReason();
const NS = 'default';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

type Json = Record<string, any>;

/**
 * The events of one HTTP watch, read until `enough` says so or the server ends the stream. `opened` runs once the
 * server has answered, that is once its storage watch has started.
 */
async function watchEvents(
  url: string,
  enough: (events: Json[]) => boolean,
  opened?: () => Promise<void>,
): Promise<{ events: Json[]; ended: boolean }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  assert.equal(res.status, 200, `watch ${url}`);
  assert.ok(res.body);
  const reader = res.body.getReader();
  try {
    await opened?.();
    const events: Json[] = [];
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return { events, ended: true };
      buffered += decoder.decode(chunk.value, { stream: true });
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line !== '') events.push(JSON.parse(line) as Json);
      }
      if (enough(events)) return { events, ended: false };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function send(server: ApiServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Updates the ConfigMap `times` times and returns the last version. */
async function churn(server: ApiServer, cm: Json, times: number): Promise<Json> {
  let current = cm;
  for (let i = 0; i < times; i++) {
    const res = await send(server, 'PUT', `${CMS}/${cm.metadata.name}`, { ...current, data: { i: String(i) } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    current = res.json;
  }
  return current;
}

describe('etcd compaction seen through the API (410 Expired)', { skip: unavailable ?? false }, () => {
  let etcd: EtcdServer;
  const servers: ApiServer[] = [];
  const serve = async (backend: Backend): Promise<ApiServer> => {
    try {
      const server = await startApiServer({ backend, port: 0 });
      servers.push(server);
      return server;
    } catch (error) {
      await backend.close();
      throw error;
    }
  };

  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    for (const server of servers) await server.close();
    await etcd.stop();
  });

  it('answers a list or watch at a resourceVersion the scheduled compaction removed with 410 Expired', async () => {
    const backend = createEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/scheduled', compactIntervalMs: 150 });
    const server = await serve(backend);
    const created = await send(server, 'POST', CMS, { metadata: { name: 'scheduled' } });
    assert.equal(created.status, 201);
    const oldRv = Number(created.json.metadata.resourceVersion);
    let current = created.json;
    // Past oldRv + 1: a watch from oldRv starts at oldRv + 1, which etcd still serves while it is the compact
    // revision itself (the list at oldRv is refused already). The deadline is a bound, not an expectation.
    const deadline = Date.now() + 20_000;
    while ((await backend.compactedRevision()) <= oldRv + 1) {
      assert.ok(Date.now() < deadline, 'the scheduled compaction did not pass the old resourceVersion within 20 s');
      current = await churn(server, current, 5);
    }

    const list = await send(server, 'GET', `${CMS}?resourceVersion=${oldRv}&resourceVersionMatch=Exact`);
    assert.equal(list.status, 410);
    assert.equal(list.json.kind, 'Status');
    assert.equal(list.json.reason, 'Expired');
    assert.equal(list.json.message, 'The resourceVersion for the provided list is too old.');

    const { events, ended } = await watchEvents(`${server.url}${CMS}?watch=true&resourceVersion=${oldRv}`, () => false);
    assert.ok(ended, 'the server ends the watch after the error');
    assert.equal(events.length, 1);
    assert.equal(events[0]?.type, 'ERROR');
    assert.equal(events[0]?.object.code, 410);
    assert.equal(events[0]?.object.reason, 'Expired');

    const latest = await send(server, 'GET', `${CMS}?resourceVersion=${current.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    assert.equal(latest.status, 200, 'the newest revision stays readable');
  });

  it('ends a running watch that compaction overtakes with a 410 Expired ERROR event', async () => {
    const backend = createEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/overtaken', compactIntervalMs: 0 });
    const server = await serve(backend);
    let current = (await send(server, 'POST', CMS, { metadata: { name: 'overtaken' } })).json;
    // The watch must still be catching up in etcd (see the backend test of the same name); etcd may replay first,
    // so a few attempts are allowed.
    for (let attempt = 0; attempt < 5; attempt++) {
      const from = current.metadata.resourceVersion as string;
      current = await churn(server, current, 20);
      const last = Number(current.metadata.resourceVersion);
      const { events, ended } = await watchEvents(
        `${server.url}${CMS}?watch=true&resourceVersion=${from}`,
        (seen) => seen.length === 20,
        () => backend.compact(last),
      );
      const types = events.map((event) => event.type);
      // etcd replayed before the compaction: every event arrives and the watch goes on.
      if (!ended && types.length === 20 && types.every((type) => type === 'MODIFIED')) continue;
      const error = events.at(-1);
      assert.ok(error?.type === 'ERROR', `the watch must end with an ERROR event, got ${JSON.stringify(types)} (ended: ${ended})`);
      assert.ok(ended, 'the server ends the watch after the error');
      assert.deepEqual(
        { kind: error.object.kind, status: error.object.status, code: error.object.code, reason: error.object.reason },
        { kind: 'Status', status: 'Failure', code: 410, reason: 'Expired' },
      );
      // Overtaken while running, or (on a busy machine) compacted before etcd registered the watch: Kubernetes
      // words the two differently, and both make clients relist.
      assert.match(
        error.object.message,
        /^(The resourceVersion for the provided watch is too old\.|too old resource version: \d+ \(\d+\))$/,
      );
      return;
    }
    assert.fail('etcd replayed before the compaction in every attempt');
  });
});
