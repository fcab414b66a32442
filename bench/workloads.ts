import type { KubeObject } from '../src/api/types.js';
import type { ApiClient, ResourceRef } from '../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { collectionPrefix } from '../src/registry/keys.js';
import { type ApiServer, startApiServer } from '../src/server/api-server.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import type { Backend } from '../src/storage/backend.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { createDeletionClock, type DeletionClock } from './deletion-clock.js';
import { median } from './stats.js';

/**
 * Issue 23's figure: a 10,000-replica Deployment on an in-process server over the memory backend, without nodes
 * (pods stay Pending, as the issue states it), every controller running. Timed at the storage writes: from the
 * Deployment's create until the 10,000th pod is stored, and from its Background DELETE until the last pod is
 * removed (the collector deletes the ReplicaSet, then its pods). The process CPU spent meanwhile, divided by the
 * pods, is the controllers' cost per pod plus the API server's for their requests. The baseline, in the same run,
 * creates and deletes the same 10,000 pods directly through the client, BURST requests in flight at a time.
 */
const REPLICAS = 10_000;
const ROUNDS = 3;
const TARGET_MS = 3000;
const BURST = 500;
const TIMEOUT_MS = 300_000;
const NS = 'bench-workloads';
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments' };
const labels = { app: 'bench' };
const podSpec = { containers: [{ name: 'c', image: 'nginx' }] };

interface CreationClock {
  readonly backend: Backend;
  /** Resolves with `performance.now()` when the `count`-th key under `prefix` has been created from now on. */
  expect(prefix: string, count: number, timeoutMs: number): Promise<number>;
}

function createCreationClock(inner: Backend): CreationClock {
  let watched: { prefix: string; left: number; done: (at: number) => void } | undefined;
  return {
    backend: {
      ...inner,
      async create(key, value) {
        const kv = await inner.create(key, value);
        if (watched !== undefined && key.startsWith(watched.prefix) && --watched.left === 0) watched.done(performance.now());
        return kv;
      },
    },
    expect(prefix, count, timeoutMs) {
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${watched?.left} of ${count} creates under ${prefix} missing`)), timeoutMs);
        watched = {
          prefix,
          left: count,
          done: (at) => {
            clearTimeout(timer);
            watched = undefined;
            resolve(at);
          },
        };
      });
    },
  };
}

interface Fixture {
  readonly server: ApiServer;
  readonly client: ApiClient;
  readonly created: CreationClock;
  readonly deleted: DeletionClock;
  readonly podPrefix: string;
}

async function startFixture(): Promise<Fixture> {
  const created = createCreationClock(createMemoryBackend());
  const deleted = createDeletionClock(created.backend);
  const server = await startApiServer({ backend: deleted.backend, port: 0 });
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  await client.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const pods = server.registry.lookup('', 'v1', 'pods');
  if (pods === undefined) throw new Error('pods are not served');
  return { server, client, created, deleted, podPrefix: collectionPrefix(pods.info, NS) };
}

interface Run {
  readonly createMs: number;
  readonly deleteMs: number;
  /** Process CPU (user + system) per pod over create and delete, µs. */
  readonly cpuMicrosPerPod: number;
}

const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function deploymentRun(): Promise<Run> {
  const f = await startFixture();
  try {
    const cpuStart = cpuMicros();
    const allCreated = f.created.expect(f.podPrefix, REPLICAS, TIMEOUT_MS);
    const createStart = performance.now();
    await f.client.create(DEPLOYMENTS, NS, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: REPLICAS, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
    });
    const createMs = (await allCreated) - createStart;
    const allDeleted = f.deleted.expect(f.podPrefix, REPLICAS, TIMEOUT_MS);
    const deleteStart = performance.now();
    await f.client.delete(DEPLOYMENTS, NS, 'web', { propagationPolicy: 'Background' });
    const deleteMs = (await allDeleted) - deleteStart;
    return { createMs, deleteMs, cpuMicrosPerPod: (cpuMicros() - cpuStart) / REPLICAS };
  } finally {
    await f.server.close();
  }
}

/** The same pods written by one client, BURST at a time, as the ReplicaSet controller's largest batch. */
async function directRun(): Promise<Run> {
  const f = await startFixture();
  try {
    const names = Array.from({ length: REPLICAS }, (_, i) => `web-${i}`);
    const cpuStart = cpuMicros();
    const createStart = performance.now();
    for (let i = 0; i < names.length; i += BURST) {
      await Promise.all(
        names
          .slice(i, i + BURST)
          .map((name) =>
            f.client.create(PODS, NS, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: podSpec } as KubeObject),
          ),
      );
    }
    const createMs = performance.now() - createStart;
    const deleteStart = performance.now();
    for (let i = 0; i < names.length; i += BURST) {
      await Promise.all(names.slice(i, i + BURST).map((name) => f.client.delete(PODS, NS, name, { propagationPolicy: 'Background' })));
    }
    const deleteMs = performance.now() - deleteStart;
    return { createMs, deleteMs, cpuMicrosPerPod: (cpuMicros() - cpuStart) / REPLICAS };
  } finally {
    await f.server.close();
  }
}

const verdict = (ms: number): string => (ms < TARGET_MS ? 'PASS' : 'FAIL');

/** Rows for bench/index.ts's table (measure, Cascade, baseline, ratio); also prints the runs. */
export async function benchWorkloads(): Promise<string[][]> {
  const deployment: Run[] = [];
  const direct: Run[] = [];
  // Alternate the two so that noise from other work on the machine hits both alike.
  for (let round = 0; round < ROUNDS; round++) {
    deployment.push(await deploymentRun());
    direct.push(await directRun());
  }
  const med = (runs: Run[], field: keyof Run): number => median(runs.map((r) => r[field]));
  const create = med(deployment, 'createMs');
  const remove = med(deployment, 'deleteMs');
  const cpu = med(deployment, 'cpuMicrosPerPod');
  const baseCreate = med(direct, 'createMs');
  const baseDelete = med(direct, 'deleteMs');
  const baseCpu = med(direct, 'cpuMicrosPerPod');
  const runs = (field: keyof Run): string => deployment.map((r) => r[field].toFixed(0)).join(', ');
  process.stdout.write(
    `${REPLICAS}-replica Deployment: pods created in ${create.toFixed(0)} ms (runs ${runs('createMs')}), deleted in ${remove.toFixed(0)} ms ` +
      `(runs ${runs('deleteMs')}), ${cpu.toFixed(0)} µs CPU per pod; direct ${baseCreate.toFixed(0)} / ${baseDelete.toFixed(0)} ms, ` +
      `${baseCpu.toFixed(0)} µs; target < ${TARGET_MS} ms each: ${verdict(create)}/${verdict(remove)}\n`,
  );
  const scope = `in memory, no nodes, median of ${ROUNDS}`;
  return [
    [
      `${REPLICAS}-replica Deployment create → ${REPLICAS} pods stored (${scope}; target < ${TARGET_MS} ms: ${verdict(create)})`,
      `${create.toFixed(0)} ms`,
      `${baseCreate.toFixed(0)} ms (the same pods created through the client, ${BURST} in flight)`,
      `${(create / baseCreate).toFixed(2)}×`,
    ],
    [
      `${REPLICAS}-replica Deployment Background delete → last pod removed (${scope}; target < ${TARGET_MS} ms: ${verdict(remove)})`,
      `${remove.toFixed(0)} ms`,
      `${baseDelete.toFixed(0)} ms (the same pods deleted through the client, ${BURST} in flight)`,
      `${(remove / baseDelete).toFixed(2)}×`,
    ],
    [
      'process CPU per pod over create + delete (controllers and the API server serving them, user + system)',
      `${cpu.toFixed(0)} µs`,
      `${baseCpu.toFixed(0)} µs (direct creates and deletes)`,
      `${(cpu / baseCpu).toFixed(2)}×`,
    ],
  ];
}
