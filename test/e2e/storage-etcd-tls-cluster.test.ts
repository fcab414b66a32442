import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Backend, WatchEvent } from '../../src/storage/backend.js';
import { createEtcdBackend } from '../../src/storage/etcd/backend.js';
import { ETCD_TRANSPORTS } from '../../src/storage/etcd/transport.js';
import { type EtcdCluster, etcdUnavailableReason, startEtcdCluster } from '../support/etcd-cluster.js';

/** Short enough to keep the test quick, longer than the 4–6 s a frozen member takes to be left. */
const CALL_TIMEOUT_MS = 10_000;
/** Timers fire late on a loaded machine; a call must still end close to its deadline. */
const DEADLINE_SLACK_MS = 1_500;

interface Load {
  /** Keys whose create etcd acknowledged, with the revision it gave. */
  readonly acknowledged: Map<string, number>;
  readonly failures: string[];
  longestMs: number;
  stop(): Promise<void>;
}

/** Writers creating distinct keys back to back, and a reader, until stopped. */
function startLoad(backend: Backend, prefix: string, writers: number): Load {
  let running = true;
  const load: Load = {
    acknowledged: new Map(),
    failures: [],
    longestMs: 0,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
  const timed = async (call: () => Promise<unknown>): Promise<void> => {
    const started = Date.now();
    try {
      await call();
    } catch (error) {
      load.failures.push((error as Error).message);
    } finally {
      load.longestMs = Math.max(load.longestMs, Date.now() - started);
    }
  };
  let next = 0;
  const loops = [
    ...Array.from({ length: writers }, async () => {
      while (running) {
        const key = `${prefix}k${String(next++).padStart(6, '0')}`;
        await timed(async () => {
          const kv = await backend.create(key, Buffer.from('v'));
          load.acknowledged.set(key, kv.modRevision);
        });
      }
    }),
    (async () => {
      while (running) await timed(() => backend.list(prefix, { limit: 5 }));
    })(),
  ];
  return load;
}

/** Collects a watch's events until stopped. */
function collect(watcher: AsyncIterable<WatchEvent>): { events: WatchEvent[]; ended: Promise<unknown> } {
  const events: WatchEvent[] = [];
  const ended = (async () => {
    try {
      for await (const event of watcher) events.push(event);
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  return { events, ended };
}

describe('etcd: a 3-member cluster with client-certificate auth (issue 25)', { skip: etcdUnavailableReason(), timeout: 120_000 }, () => {
  let cluster: EtcdCluster;
  before(async () => {
    cluster = await startEtcdCluster(3);
  });
  after(async () => {
    await cluster?.stop();
  });

  // Both HTTP/2 implementations behind the channel keep the same promises (issue 25).
  for (const transport of ETCD_TRANSPORTS) {
    it(`loses no acknowledged write, ends every call by its deadline and resumes its watch when members die and freeze (${transport})`, async () => {
      // Raw values, outside every resource's key range: the server started on this cluster below lists configmaps.
      const prefix = `/cascade-test-load/${transport}/`;
      const backend = createEtcdBackend({
        endpoints: cluster.endpoints,
        tls: cluster.credentials,
        compactIntervalMs: 0,
        callTimeoutMs: CALL_TIMEOUT_MS,
        transport,
      });
      try {
        const start = await backend.currentRevision();
        const watch = collect(await backend.watch(prefix, start));
        const load = startLoad(backend, prefix, 8);
        const settled = async (count: number): Promise<void> => {
          const target = load.acknowledged.size + count;
          await until(() => assert.ok(load.acknowledged.size >= target, `${load.acknowledged.size} of ${target} writes`), 20_000);
        };
        try {
          await settled(50);
          // The channel starts on the first member: kill the member in use mid-load.
          await cluster.kill(0);
          await settled(50);
          await cluster.restart(0);
          // Calls moved to the second member: freeze it mid-load and mid-watch.
          cluster.freeze(1);
          await settled(50);
          cluster.thaw(1);
          await cluster.waitHealthy(1);
          await settled(50);
        } finally {
          cluster.thaw(1);
          await load.stop();
        }
        assert.ok(load.longestMs <= CALL_TIMEOUT_MS + DEADLINE_SLACK_MS, `a call took ${load.longestMs} ms`);
        // Writes that may have been applied fail (they are never blindly retried); there are few of them.
        assert.ok(load.failures.length <= 40, `${load.failures.length} failures: ${load.failures.slice(0, 5).join('; ')}`);

        for (const [key, revision] of load.acknowledged) {
          const read = await backend.get(key);
          assert.equal(read.kv?.modRevision, revision, `${key} acknowledged at ${revision}`);
        }
        const last = Math.max(...load.acknowledged.values());
        await until(
          () =>
            assert.ok(
              watch.events.some((e) => e.revision >= last),
              'the watch reached the last write',
            ),
          10_000,
        );
        const revisions = watch.events.map((e) => e.revision);
        for (let i = 1; i < revisions.length; i++) {
          assert.ok(
            (revisions[i] as number) > (revisions[i - 1] as number),
            `event ${i}: revision ${revisions[i]} after ${revisions[i - 1]}`,
          );
        }
        const seen = new Map(watch.events.map((e) => [e.kv.key, e.revision]));
        for (const [key, revision] of load.acknowledged) assert.equal(seen.get(key), revision, `the watch saw ${key}`);
        // Every create in the key range is in the watch, applied-but-failed ones included: no gap.
        const listed = await backend.list(prefix);
        assert.equal(watch.events.length, listed.kvs.length);
      } finally {
        await backend.close();
      }
    });
  }

  it('serves kube-apiserver flags --etcd-servers (https, several) --etcd-cafile/--etcd-certfile/--etcd-keyfile, and reports etcd in /readyz, /livez and /metrics', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cascade-etcd-tls-'));
    const { caFile, certFile, keyFile } = cluster.credentials;
    const child = spawn(
      process.execPath,
      [
        'dist/src/cli/main.js',
        'serve',
        '--storage=etcd',
        `--etcd-servers=${cluster.endpoints.join(',')}`,
        `--etcd-cafile=${caFile}`,
        `--etcd-certfile=${certFile}`,
        `--etcd-keyfile=${keyFile}`,
        `--data-dir=${dataDir}`,
        '--secure-port=0',
        '--insecure-http=true',
        '--enable-garbage-collector=false',
        '--request-timeout=10s',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      const url = await listeningUrl(child);
      const get = async (path: string): Promise<{ status: number; text: string }> => {
        const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(15_000) });
        return { status: res.status, text: await res.text() };
      };
      const created = await fetch(`${url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-tls' }, data: { a: 'b' } }),
      });
      assert.equal(created.status, 201, await created.text());
      assert.equal((await get('/api/v1/namespaces/default/configmaps/over-tls')).status, 200);

      const verbose = await get('/readyz?verbose');
      assert.equal(verbose.status, 200);
      assert.match(
        verbose.text,
        /^\[\+\]ping ok\n\[\+\]log ok\n\[\+\]etcd ok\n\[\+\]etcd-readiness ok\n\[\+\]shutdown ok\nreadyz check passed\n$/,
      );
      assert.deepEqual(await get('/livez/etcd'), { status: 200, text: 'ok' });
      assert.deepEqual(await get('/readyz/etcd'), { status: 200, text: 'ok' });
      const metrics = (await get('/metrics')).text;
      assert.match(metrics, /^etcd_request_duration_seconds_count\{operation="create",type="configmaps"\} [1-9]/m);
      assert.match(metrics, /^etcd_requests_total\{operation="get",type="configmaps"\} [1-9]/m);
      assert.match(metrics, /^etcd_request_errors_total\{operation="create",type="configmaps"\} 0$/m);

      // Two of three members gone: no quorum, so no linearizable read, and the checks fail.
      await cluster.kill(1);
      await cluster.kill(2);
      await until(async () => {
        const livez = await get('/livez');
        assert.equal(livez.status, 500);
        assert.match(livez.text, /^\[\+\]ping ok\n\[\+\]log ok\n\[-\]etcd failed: reason withheld\nlivez check failed\n$/);
      }, 20_000);
      const single = await get('/readyz/etcd');
      assert.equal(single.status, 500);
      assert.match(single.text, /^internal server error: /);

      await Promise.all([cluster.restart(1), cluster.restart(2)]);
      await until(async () => assert.deepEqual(await get('/readyz'), { status: 200, text: 'ok' }), 20_000);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

async function listeningUrl(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cascade serve did not start: ${output}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http\S+)/.exec(output);
      if (found !== null) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cascade serve exited with ${code}: ${output}`));
    });
  });
}

/** Runs `check` until it stops throwing, or throws its last error after `timeoutMs`. */
async function until(check: () => unknown, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
