import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../../src/embed/index.js';

const DEPENDENTS = 10_000;
const SHARED = 200;
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Starts `cascade serve` on SQLite in `dataDir` as its own process, so it can be killed with SIGKILL. */
async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['dist/src/cli/main.js', 'serve', '--storage', 'sqlite', '--data-dir', dataDir, '--secure-port', '0', '--insecure-http=true'],
    {
      // stderr is not read: a pipe nobody drains would fill up and block the server's logging.
      stdio: ['ignore', 'pipe', 'ignore'],
    },
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

async function kill(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

async function request(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function createAll(url: string, objects: unknown[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < objects.length) {
      const obj = objects[next++];
      const res = await request(url, 'POST', CONFIGMAPS, obj);
      assert.equal(res.status, 201, JSON.stringify(res.json));
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

/** Objects in the namespace, cheaply: remainingItemCount is only reported for lists without selectors. */
async function total(url: string): Promise<number> {
  const res = await request(url, 'GET', `${CONFIGMAPS}?limit=1`);
  return res.json.items.length + (res.json.metadata.remainingItemCount ?? 0);
}

async function count(url: string, labelSelector: string): Promise<number> {
  return (await request(url, 'GET', `${CONFIGMAPS}?labelSelector=${encodeURIComponent(labelSelector)}`)).json.items.length;
}

/**
 * Issue 7, item 4: a server killed with SIGKILL in the middle of a 10,000-object cascade and started again on the
 * same SQLite file finishes the cascade; nothing that had a valid owner is lost and no orphan is left behind.
 */
describe('crash safety on SQLite', () => {
  it('finishes a 10,000-dependent cascade after SIGKILL at random points', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cascade-crash-'));
    try {
      let server = await startServer(dataDir);
      const owner = (await request(server.url, 'POST', CONFIGMAPS, { metadata: { name: 'owner' } })).json;
      const keeper = (await request(server.url, 'POST', CONFIGMAPS, { metadata: { name: 'keeper' } })).json;
      const ref = (o: any) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid });
      await createAll(server.url, [
        ...Array.from({ length: DEPENDENTS }, (_, i) => ({
          metadata: { name: `dep-${i}`, labels: { role: 'dep' }, ownerReferences: [ref(owner)] },
        })),
        ...Array.from({ length: SHARED }, (_, i) => ({
          metadata: { name: `shared-${i}`, labels: { role: 'shared' }, ownerReferences: [ref(owner), ref(keeper)] },
        })),
      ]);
      assert.equal((await request(server.url, 'DELETE', `${CONFIGMAPS}/owner`, { propagationPolicy: 'Background' })).status, 200);
      // Kill at three random points of the cascade, restarting on the same file each time.
      for (const fraction of [0.1 + Math.random() * 0.2, 0.4 + Math.random() * 0.2, 0.7 + Math.random() * 0.2]) {
        const target = Math.floor(DEPENDENTS * (1 - fraction));
        const url = server.url;
        // Dependents left = everything minus the shared dependents and the keeper.
        await waitFor(async () => ((await total(url)) - SHARED - 1 <= target ? true : undefined), {
          timeoutMs: 60_000,
          what: `the cascade to pass ${Math.round(fraction * 100)} %`,
        });
        await kill(server);
        server = await startServer(dataDir);
      }
      const url = server.url;
      await waitFor(async () => ((await total(url)) === SHARED + 1 ? true : undefined), {
        timeoutMs: 60_000,
        what: 'the cascade to finish after the last restart',
      });
      assert.equal(await count(url, 'role=dep'), 0);
      assert.equal(await count(url, 'role=shared'), SHARED, 'no dependent with a live owner is lost (R4.37)');
      await waitFor(
        async () => {
          const items = (await request(url, 'GET', `${CONFIGMAPS}?labelSelector=role%3Dshared`)).json.items as any[];
          return items.every((o) => o.metadata.ownerReferences.length === 1 && o.metadata.ownerReferences[0].uid === keeper.metadata.uid)
            ? true
            : undefined;
        },
        { timeoutMs: 60_000, what: 'references to the deleted owner to be pruned (R4.27)' },
      );
      assert.equal((await request(url, 'GET', `${CONFIGMAPS}/keeper`)).status, 200);
      // Issue 28: `cascade serve` archives by default, each entry in its removal's own transaction, so the kills
      // lost none: every dependent the cascade removed has its entry, naming the owner, and the owner its own.
      const archived = `/apis/cascade.dev/v1alpha1/namespaces/default/archivedobjects`;
      const cascaded = (
        await request(url, 'GET', `${archived}?fieldSelector=${encodeURIComponent(`deletion.ownerUID=${owner.metadata.uid}`)}`)
      ).json.items as any[];
      assert.equal(cascaded.length, DEPENDENTS, 'an archive entry for every dependent the cascade removed');
      assert.ok(cascaded.every((e) => e.deletion.reason === 'Cascade' && e.object.metadata.labels.role === 'dep'));
      assert.equal(new Set(cascaded.map((e) => e.original.uid)).size, DEPENDENTS);
      const ownerEntry = (await request(url, 'GET', `${archived}/${owner.metadata.uid}`)).json;
      assert.equal(ownerEntry.deletion.reason, 'Delete');
      await kill(server);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
