import type { Etcd3 } from 'etcd3';
import { startApiServer } from '../src/server/api-server.js';
import { createEtcdBackend } from '../src/storage/etcd/backend.js';
import { connectEtcd } from '../test/support/etcd3-client.js';
import { GrpcChannel } from '../src/storage/etcd/grpc-channel.js';
import { type EtcdKv, EtcdKvClient } from '../src/storage/etcd/kv-client.js';
import { etcdUnavailableReason, startEtcd } from '../test/support/etcd-server.js';
import { CONFIGMAPS_PATH, CREATE_CONCURRENCY, CREATE_LOAD_MS, configMapBody, type Measured, measureInProcessCreates } from './load.js';
import { median } from './stats.js';

/**
 * Issue 7's etcd figure: HTTP ConfigMap creates per second through Cascade on etcd, against raw etcd puts with
 * the same number in flight on the same etcd in the same run (target: at least 70%). The raw puts carry values
 * of the size Cascade stores for these ConfigMaps. Both alternate so that machine noise hits both alike; every
 * Cascade round starts on an empty etcd prefix.
 */
const ROUNDS = 3;
const WARMUP_MS = 1000;
const TARGET_RATIO = 0.7;

function measureCascade(endpoint: string, prefix: string, durationMs: number): Promise<Measured> {
  return measureInProcessCreates(createEtcdBackend({ endpoints: [endpoint], prefix }), durationMs);
}

/**
 * CREATE_CONCURRENCY loops, each with one operation in flight at a time, as postLoad keeps one request per
 * connection. `op` writes key number `i` and resolves whether etcd did it.
 */
async function loadEtcd(durationMs: number, op: (i: number) => Promise<boolean>): Promise<Measured & { cpuPerCallUs: number }> {
  let next = 0;
  let done = 0;
  let failures = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      try {
        if (await op(next++)) done++;
        else failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, loop));
  const used = process.cpuUsage(cpu);
  return {
    perSecond: done / ((performance.now() - started) / 1000),
    failures,
    cpuPerCallUs: (used.user + used.system) / Math.max(1, done),
  };
}

function measureRawPuts(client: Etcd3, prefix: string, value: Buffer, durationMs: number): Promise<Measured> {
  return loadEtcd(durationMs, async (i) => {
    await client.kv.put({ key: Buffer.from(`${prefix}/${i}`), value });
    return true;
  });
}

/**
 * A finer breakdown, not the figure: the guarded creates Cascade sends (create_revision == 0 → put), through
 * Cascade's etcd client, with nothing else around them. etcd spends more per transaction than per plain put, so
 * this bounds what Cascade's creates can reach against raw puts on the same etcd.
 */
function measureRawCreates(kv: EtcdKv, prefix: string, value: Buffer, durationMs: number): Promise<Measured & { cpuPerCallUs: number }> {
  return loadEtcd(durationMs, async (i) => {
    const key = Buffer.from(`${prefix}/${i}`);
    const response = await kv.txn({ compare: [{ key, target: 'create', equals: 0 }], success: [{ put: { key, value } }] });
    return response.succeeded;
  });
}

export async function benchEtcd(): Promise<string[][]> {
  const label = `ConfigMap creates/s on etcd, in-process, ${CREATE_CONCURRENCY} connections, median of ${ROUNDS} × ${CREATE_LOAD_MS / 1000} s (target ≥ ${TARGET_RATIO * 100}%`;
  const unavailable = etcdUnavailableReason();
  if (unavailable !== undefined) {
    process.stdout.write(`etcd bench skipped: ${unavailable}\n`);
    return [[`${label}: skipped)`, `skipped: ${unavailable}`, '—', '—']];
  }
  const etcd = await startEtcd();
  const client = await connectEtcd([etcd.endpoint]);
  const channel = new GrpcChannel([etcd.endpoint]);
  const kv = new EtcdKvClient(channel);
  // The same calls over node:http2, the transport the fast one is compared with (issue 25).
  const nodeChannel = new GrpcChannel([etcd.endpoint], { transport: 'node-http2' });
  const nodeKv = new EtcdKvClient(nodeChannel);
  const cascadeRuns: Measured[] = [];
  const rawRuns: Measured[] = [];
  const createRuns: (Measured & { cpuPerCallUs: number })[] = [];
  const nodeCreateRuns: (Measured & { cpuPerCallUs: number })[] = [];
  try {
    // What Cascade stores for one of these ConfigMaps, so that both sides write values of the same size.
    const sample = await measureSample(etcd.endpoint);
    const value = Buffer.alloc(sample, 'x');
    await measureCascade(etcd.endpoint, '/bench-warmup', WARMUP_MS);
    await measureRawPuts(client, '/bench-raw-warmup', value, WARMUP_MS);
    for (let round = 0; round < ROUNDS; round++) {
      rawRuns.push(await measureRawPuts(client, `/bench-raw-${round}`, value, CREATE_LOAD_MS));
      cascadeRuns.push(await measureCascade(etcd.endpoint, `/bench-cascade-${round}`, CREATE_LOAD_MS));
      createRuns.push(await measureRawCreates(kv, `/bench-create-${round}`, value, CREATE_LOAD_MS));
      nodeCreateRuns.push(await measureRawCreates(nodeKv, `/bench-node-create-${round}`, value, CREATE_LOAD_MS));
    }
  } finally {
    client.close();
    channel.close();
    nodeChannel.close();
    await etcd.stop();
  }
  const cascade = median(cascadeRuns.map((r) => r.perSecond));
  const raw = median(rawRuns.map((r) => r.perSecond));
  const creates = median(createRuns.map((r) => r.perSecond));
  const nodeCreates = median(nodeCreateRuns.map((r) => r.perSecond));
  const cpuFast = median(createRuns.map((r) => r.cpuPerCallUs));
  const cpuNode = median(nodeCreateRuns.map((r) => r.cpuPerCallUs));
  const failures = (runs: Measured[]): number => runs.reduce((n, r) => n + r.failures, 0);
  const ratio = cascade / raw;
  const verdict = ratio >= TARGET_RATIO ? 'PASS' : 'FAIL';
  const list = (runs: Measured[]): string => runs.map((r) => r.perSecond.toFixed(0)).join(', ');
  process.stdout.write(
    `etcd HTTP creates: ${cascade.toFixed(0)}/s (runs ${list(cascadeRuns)}) vs raw etcd puts ${raw.toFixed(0)}/s (runs ${list(rawRuns)}): ` +
      `${(ratio * 100).toFixed(1)}%, target ≥ ${TARGET_RATIO * 100}%: ${verdict}; ` +
      `raw guarded create transactions ${creates.toFixed(0)}/s (runs ${list(createRuns)}): ${((creates / raw) * 100).toFixed(1)}% of raw puts; ` +
      `over node:http2 ${nodeCreates.toFixed(0)}/s (runs ${list(nodeCreateRuns)}); CPU per call ${cpuFast.toFixed(0)} µs fast, ${cpuNode.toFixed(0)} µs node:http2\n`,
  );
  return [
    [
      `${label}: ${verdict})`,
      `${cascade.toFixed(0)}/s (${failures(cascadeRuns)} failed)`,
      `${raw.toFixed(0)}/s (${failures(rawRuns)} failed; raw etcd puts, ${CREATE_CONCURRENCY} in flight, same etcd)`,
      `${(ratio * 100).toFixed(1)}%`,
    ],
    [
      `Breakdown, informational: raw etcd create transactions/s (create_revision = 0 → put, the one call a Cascade create makes), ${CREATE_CONCURRENCY} in flight, Cascade's etcd client, same etcd, median of ${ROUNDS} × ${CREATE_LOAD_MS / 1000} s`,
      `${creates.toFixed(0)}/s (${failures(createRuns)} failed)`,
      `${raw.toFixed(0)}/s (the raw etcd puts above)`,
      `${((creates / raw) * 100).toFixed(1)}%`,
    ],
    [
      `Breakdown, informational: the same create transactions/s over the node:http2 transport (transport: 'node-http2'), and process CPU per call of each transport, same etcd, median of ${ROUNDS} × ${CREATE_LOAD_MS / 1000} s`,
      `${nodeCreates.toFixed(0)}/s (${failures(nodeCreateRuns)} failed), ${cpuNode.toFixed(0)} µs CPU/call`,
      `${creates.toFixed(0)}/s, ${cpuFast.toFixed(0)} µs CPU/call (Cascade's own HTTP/2, above)`,
      `${((nodeCreates / creates) * 100).toFixed(1)}%`,
    ],
  ];
}

/** The stored size of one benchmark ConfigMap, read back from etcd after creating it through Cascade. */
async function measureSample(endpoint: string): Promise<number> {
  const backend = createEtcdBackend({ endpoints: [endpoint], prefix: '/bench-sample' });
  const server = await startApiServer({ backend, port: 0, controllers: { garbageCollector: false } });
  try {
    const res = await fetch(`${server.url}${CONFIGMAPS_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: configMapBody(0),
    });
    if (res.status !== 201) throw new Error(`sample create failed: ${res.status} ${await res.text()}`);
    const stored = await backend.get('/registry/configmaps/default/bench-0');
    return stored.kv?.value.byteLength ?? 0;
  } finally {
    await server.close();
  }
}
