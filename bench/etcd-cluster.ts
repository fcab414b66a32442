import type { Backend } from '../src/storage/backend.js';
import { createEtcdBackend } from '../src/storage/etcd/backend.js';
import { connectEtcd } from '../test/support/etcd3-client.js';
import { type EtcdCluster, etcdUnavailableReason, startEtcdCluster } from '../test/support/etcd-cluster.js';
import { CREATE_CONCURRENCY, CREATE_LOAD_MS, type Measured, measureInProcessCreates } from './load.js';
import { median } from './stats.js';

/**
 * Issue 25's figures: HTTP ConfigMap creates through Cascade on a 3-member etcd cluster with client-certificate
 * TLS, against raw etcd puts (the etcd3 library, same TLS, same cluster, same number in flight) in the same run;
 * and how long writes stop when the member in use is killed, and when it freezes (SIGSTOP), with the client's
 * default deadlines and keepalive.
 */
const ROUNDS = 3;
const TARGET_RATIO = 0.7;
/** What one benchmark ConfigMap takes in etcd (bench/etcd.ts measures it; close enough for the raw side). */
const VALUE_BYTES = 300;
const FAILOVER_WRITERS = 8;

function cascadeBackend(cluster: EtcdCluster, prefix: string): Backend {
  return createEtcdBackend({ endpoints: cluster.endpoints, tls: cluster.credentials, prefix, compactIntervalMs: 0 });
}

async function rawPuts(cluster: EtcdCluster, prefix: string, durationMs: number): Promise<Measured> {
  const client = await connectEtcd(cluster.endpoints, cluster.credentials);
  const value = Buffer.alloc(VALUE_BYTES, 'x');
  let next = 0;
  let done = 0;
  let failures = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (performance.now() < started + durationMs) {
          try {
            await client.kv.put({ key: Buffer.from(`${prefix}/${next++}`), value });
            done++;
          } catch {
            failures++;
          }
        }
      }),
    );
  } finally {
    client.close();
  }
  return { perSecond: done / ((performance.now() - started) / 1000), failures };
}

/** The longest time between two acknowledged creates while `disrupt` runs under a steady load. */
async function writeGap(backend: Backend, phase: string, disrupt: () => Promise<void>): Promise<{ gapMs: number; failed: number }> {
  let running = true;
  let last = performance.now();
  let gapMs = 0;
  let failed = 0;
  let next = 0;
  const loops = Array.from({ length: FAILOVER_WRITERS }, async () => {
    while (running) {
      try {
        await backend.create(`/registry/configmaps/${phase}/k${next++}`, Buffer.from('v'));
        const now = performance.now();
        gapMs = Math.max(gapMs, now - last);
        last = now;
      } catch {
        failed++;
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  gapMs = 0;
  await disrupt();
  running = false;
  await Promise.all(loops);
  return { gapMs, failed };
}

export async function benchEtcdCluster(): Promise<string[][]> {
  const label = `ConfigMap creates/s on a 3-member etcd with client-certificate TLS, in-process, ${CREATE_CONCURRENCY} connections, median of ${ROUNDS} × ${CREATE_LOAD_MS / 1000} s (target ≥ ${TARGET_RATIO * 100}%`;
  const unavailable = etcdUnavailableReason();
  if (unavailable !== undefined) return [[`${label}: skipped)`, `skipped: ${unavailable}`, '—', '—']];
  const cluster = await startEtcdCluster(3);
  const cascadeRuns: Measured[] = [];
  const rawRuns: Measured[] = [];
  let kill: { gapMs: number; failed: number };
  let freeze: { gapMs: number; failed: number };
  try {
    await measureInProcessCreates(cascadeBackend(cluster, '/bench-warmup'), 1000);
    await rawPuts(cluster, '/bench-raw-warmup', 1000);
    for (let round = 0; round < ROUNDS; round++) {
      rawRuns.push(await rawPuts(cluster, `/bench-raw-${round}`, CREATE_LOAD_MS));
      cascadeRuns.push(await measureInProcessCreates(cascadeBackend(cluster, `/bench-cascade-${round}`), CREATE_LOAD_MS));
    }
    const backend = cascadeBackend(cluster, '/bench-failover');
    try {
      // The client starts on the first member: kill it, then (once it is back) freeze the second, now in use.
      kill = await writeGap(backend, 'kill', async () => {
        await cluster.kill(0);
        await new Promise((resolve) => setTimeout(resolve, 3000));
      });
      await cluster.restart(0);
      freeze = await writeGap(backend, 'freeze', async () => {
        cluster.freeze(1);
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        cluster.thaw(1);
      });
    } finally {
      await backend.close();
    }
  } finally {
    await cluster.stop();
  }
  const cascade = median(cascadeRuns.map((r) => r.perSecond));
  const raw = median(rawRuns.map((r) => r.perSecond));
  const ratio = cascade / raw;
  const verdict = ratio >= TARGET_RATIO ? 'PASS' : 'FAIL';
  const failures = (runs: Measured[]): number => runs.reduce((n, r) => n + r.failures, 0);
  const list = (runs: Measured[]): string => runs.map((r) => r.perSecond.toFixed(0)).join(', ');
  process.stdout.write(
    `etcd cluster (mTLS) HTTP creates: ${cascade.toFixed(0)}/s (runs ${list(cascadeRuns)}) vs raw puts ${raw.toFixed(0)}/s (runs ${list(rawRuns)}): ` +
      `${(ratio * 100).toFixed(1)}% ${verdict}; writes stopped ${kill.gapMs.toFixed(0)} ms after a kill (${kill.failed} failed), ` +
      `${freeze.gapMs.toFixed(0)} ms after a freeze (${freeze.failed} failed)\n`,
  );
  return [
    [
      `${label}: ${verdict})`,
      `${cascade.toFixed(0)}/s (${failures(cascadeRuns)} failed)`,
      `${raw.toFixed(0)}/s (${failures(rawRuns)} failed; raw etcd puts via etcd3, same TLS cluster)`,
      `${(ratio * 100).toFixed(1)}%`,
    ],
    [
      `Failover, ${FAILOVER_WRITERS} writers, default deadlines and keepalive: longest pause of acknowledged creates after the member in use is killed / frozen (SIGSTOP)`,
      `${kill.gapMs.toFixed(0)} ms / ${freeze.gapMs.toFixed(0)} ms (${kill.failed} / ${freeze.failed} writes failed as possibly applied)`,
      'goal: under the call deadline (60 s), a few seconds',
      '—',
    ],
  ];
}
