import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { etcdUnavailableReason, startEtcd } from '../support/etcd-server.js';
import { waitFor } from '../../src/embed/index.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const DEPENDENTS = 3000;
const LEASE_DURATION_MS = 2000;

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
}

async function startServer(endpoint: string, dataDir: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      'dist/src/cli/main.js',
      'serve',
      '--storage',
      'etcd',
      `--etcd-servers=${endpoint}`,
      '--data-dir',
      dataDir,
      '--secure-port',
      '0',
      // A storage test: plain HTTP keeps its requests free of credentials.
      '--insecure-http=true',
      '--leader-elect=true',
      `--leader-elect-lease-duration=${LEASE_DURATION_MS}ms`,
      '--leader-elect-renew-deadline=1500ms',
      '--leader-elect-retry-period=200ms',
    ],
    // stderr is not read: a pipe nobody drains would fill up and block the server's logging.
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/[0-9.]+:\d+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`cascade serve exited with ${code}`)));
  });
  return { url, child };
}

/** Only the process holding the Lease runs the garbage collector, so only its /metrics carries the collector's series. */
async function leads(server: Server): Promise<boolean> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return text.includes('cascade_garbage_collector_deletions_total');
}

async function request(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function total(url: string): Promise<number> {
  const res = await request(url, 'GET', `${CONFIGMAPS}?limit=1`);
  return res.json.items.length + (res.json.metadata.remainingItemCount ?? 0);
}

/**
 * Issue 7, item 5: two API servers on one etcd serve the same objects; the controllers run only in the Lease
 * holder; killing it moves them to the other within the lease duration, and a cascade started before finishes after.
 */
describe('high availability on etcd', { skip: etcdUnavailableReason() }, () => {
  it('moves the controllers to the surviving server and finishes the cascade', { timeout: 120_000 }, async () => {
    const etcd = await startEtcd();
    const dirs = [await mkdtemp(join(tmpdir(), 'cascade-ha-')), await mkdtemp(join(tmpdir(), 'cascade-ha-'))];
    const servers: Server[] = [];
    try {
      servers.push(await startServer(etcd.endpoint, dirs[0] as string), await startServer(etcd.endpoint, dirs[1] as string));
      const [leader, follower] = await waitFor(
        async () => {
          const [a, b] = [await leads(servers[0] as Server), await leads(servers[1] as Server)];
          if (a === b) return undefined;
          return a ? [servers[0] as Server, servers[1] as Server] : [servers[1] as Server, servers[0] as Server];
        },
        { timeoutMs: 10_000, what: 'exactly one server to lead' },
      );
      const owner = (await request(follower.url, 'POST', CONFIGMAPS, { metadata: { name: 'owner' } })).json;
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid };
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < DEPENDENTS) {
            const i = next++;
            const res = await request(i % 2 === 0 ? leader.url : follower.url, 'POST', CONFIGMAPS, {
              metadata: { name: `dep-${i}`, ownerReferences: [ref] },
            });
            assert.equal(res.status, 201);
          }
        }),
      );
      assert.equal(await total(follower.url), DEPENDENTS + 1, 'both servers wrote to, and read from, the same etcd');
      assert.equal((await request(follower.url, 'DELETE', `${CONFIGMAPS}/owner`, { propagationPolicy: 'Background' })).status, 200);
      await waitFor(async () => ((await total(follower.url)) < DEPENDENTS * 0.9 ? true : undefined), {
        timeoutMs: 30_000,
        what: 'the cascade to start',
      });
      const killedAt = Date.now();
      leader.child.kill('SIGKILL');
      await waitFor(async () => ((await leads(follower)) ? true : undefined), { timeoutMs: 10_000, what: 'the follower to take over' });
      assert.ok(Date.now() - killedAt < LEASE_DURATION_MS + 2_000, 'takeover within the lease duration (plus a retry period and slack)');
      await waitFor(async () => ((await total(follower.url)) === 0 ? true : undefined), {
        timeoutMs: 60_000,
        what: 'the cascade to finish on the new leader',
      });
    } finally {
      for (const s of servers) s.child.kill('SIGKILL');
      await etcd.stop();
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    }
  });
});
