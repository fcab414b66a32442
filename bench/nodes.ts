import type { KubeObject } from '../src/api/types.js';
import type { ApiClient, ResourceRef } from '../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { startApiServer } from '../src/server/api-server.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';

/**
 * Issue 24's figures: a 10,000-replica Deployment on 100 simulated nodes, from its create until every pod is
 * Running and Ready (goal < 10 s; the anchor is kwok's 20 pods/s with a full control plane, 500 s for 10,000), then
 * its deletion with `propagationPolicy: Foreground` while each pod takes 1 s to stop
 * (`cascade.dev/simulate-termination-seconds: "1"`), until the Deployment and every pod are gone (goal < 5 s), and
 * the memory each simulated pod costs (heap and RSS growth over the run, per pod).
 */
const REPLICAS = 10_000;
const NODES = 100;
const KWOK_PODS_PER_SECOND = 20;
const READY_GOAL_MS = 10_000;
const DELETE_GOAL_MS = 5_000;
/** Past these the figure is reported as not reached (a FAIL) instead of aborting the whole bench. */
const READY_TIMEOUT_MS = 300_000;
const DELETE_TIMEOUT_MS = 120_000;
const NS = 'default';
const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'bench' },
  spec: {
    replicas: REPLICAS,
    selector: { matchLabels: { app: 'bench' } },
    template: {
      metadata: { labels: { app: 'bench' }, annotations: { 'cascade.dev/simulate-termination-seconds': '1' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
};

/** Polls until `check` holds (true) or `timeoutMs` passed (false). */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function cpuSeconds(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

function isRunningAndReady(pod: KubeObject): boolean {
  const status = pod.status as { phase?: string; conditions?: { type: string; status: string }[] } | undefined;
  return status?.phase === 'Running' && (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

async function readyReplicas(client: ApiClient): Promise<number> {
  const d = await client.get(DEPLOYMENTS, NS, 'bench');
  return Number((d.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0);
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function benchNodes(): Promise<string[][]> {
  const server = await startApiServer({ backend: createMemoryBackend(), port: 0, controllers: { simulateNodes: NODES } });
  try {
    const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
    await until(async () => (await client.list({ group: '', version: 'v1', resource: 'nodes' }, undefined)).items.length === NODES, 30_000);
    collectGarbage();
    const before = process.memoryUsage();
    const started = performance.now();
    const cpuStarted = cpuSeconds();
    await client.create(DEPLOYMENTS, NS, deployment);
    const allReady = await until(async () => (await readyReplicas(client)) === REPLICAS, READY_TIMEOUT_MS);
    const readyMs = performance.now() - started;
    const readyCpu = cpuSeconds() - cpuStarted;
    const pods = (await client.list(PODS, NS)).items;
    const running = pods.filter(isRunningAndReady).length;
    collectGarbage();
    const after = process.memoryUsage();

    const deleting = performance.now();
    const cpuDeleting = cpuSeconds();
    await client.delete(DEPLOYMENTS, NS, 'bench', { propagationPolicy: 'Foreground' });
    const allGone = await until(async () => {
      const left = await client.list(PODS, NS, { limit: 1 });
      if (left.items.length > 0) return false;
      return (await client.list(DEPLOYMENTS, NS)).items.length === 0;
    }, DELETE_TIMEOUT_MS);
    const deleteMs = performance.now() - deleting;
    const deleteCpu = cpuSeconds() - cpuDeleting;

    const kwokMs = (REPLICAS / KWOK_PODS_PER_SECOND) * 1000;
    const verdict = (reached: boolean, ms: number, goal: number): string => (reached && ms < goal ? 'PASS' : 'FAIL');
    const took = (reached: boolean, ms: number, cpu: number): string =>
      `${reached ? '' : 'not reached in '}${(ms / 1000).toFixed(2)} s wall, ${cpu.toFixed(1)} s CPU`;
    const perPod = (bytes: number): string => `${(bytes / REPLICAS / 1024).toFixed(1)} KiB`;
    return [
      [
        `${REPLICAS.toLocaleString('en')}-replica Deployment on ${NODES} simulated nodes: create → all pods Running and Ready (${running} counted; goal < ${READY_GOAL_MS / 1000} s: ${verdict(allReady, readyMs, READY_GOAL_MS)})`,
        `${took(allReady, readyMs, readyCpu)} (${((running / readyMs) * 1000).toFixed(0)} pods/s)`,
        `${kwokMs / 1000} s (kwok: ${KWOK_PODS_PER_SECOND} pods/s)`,
        allReady ? `${(kwokMs / readyMs).toFixed(0)}× faster` : 'n/a (not reached)',
      ],
      [
        `its deletion with --cascade=foreground, each pod taking 1 s to stop: DELETE → Deployment and every pod gone (goal < ${DELETE_GOAL_MS / 1000} s: ${verdict(allGone, deleteMs, DELETE_GOAL_MS)})`,
        took(allGone, deleteMs, deleteCpu),
        `${DELETE_GOAL_MS / 1000} s (goal; 1 s is the pods' own termination)`,
        allGone ? `${(deleteMs / DELETE_GOAL_MS).toFixed(2)}× the goal` : 'n/a (not reached)',
      ],
      [
        'memory per simulated pod (Pod, ReplicaSet and kubelet state, informers; growth over the run ÷ pods)',
        `heap ${perPod(after.heapUsed - before.heapUsed)}, RSS ${perPod(after.rss - before.rss)}`,
        `${(before.heapUsed / 1024 / 1024).toFixed(0)} MiB heap before the Deployment`,
        'reported',
      ],
    ];
  } finally {
    await server.close();
  }
}
