import type { KubeObject, OwnerReference } from '../src/api/types.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../src/client/interface.js';
import type { GarbageCollector } from '../src/controllers/garbage-collector/controller.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { collectionPrefix } from '../src/registry/keys.js';
import { type ApiServer, type ApiServerOptions, startApiServer } from '../src/server/api-server.js';
import type { Backend } from '../src/storage/backend.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { createDeletionClock, type DeletionClock } from './deletion-clock.js';

export const NAMESPACE = 'gc-bench';
export const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };
/** Creates in flight while building fixtures: enough to keep the event loop busy, few enough to stay ordered. */
const CREATE_BATCH = 200;

/** An in-memory server with its collector running, and the client the collector itself uses. */
export interface GcFixture {
  readonly server: ApiServer;
  readonly client: ApiClient;
  readonly collector: GarbageCollector;
  readonly clock: DeletionClock;
  /** The unwrapped storage, for checks outside the timed part. */
  readonly storage: Backend;
  /** Storage prefix of the bench namespace's ConfigMaps. */
  readonly prefix: string;
  close(): Promise<void>;
}

/** `archive`: the server archives what it removes (issue 28), as `cascade serve` does by default. */
export async function startGcFixture(archive?: ApiServerOptions['archive']): Promise<GcFixture> {
  const storage = createMemoryBackend();
  const clock = createDeletionClock(storage);
  const server = await startApiServer({ backend: clock.backend, port: 0, archive });
  const collector = server.controllers.garbageCollector;
  if (collector === undefined) throw new Error('the garbage collector is not running');
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  await client.create({ group: '', version: 'v1', resource: 'namespaces' }, undefined, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NAMESPACE },
  });
  const store = server.registry.lookup(CONFIGMAPS.group, CONFIGMAPS.version, CONFIGMAPS.resource);
  if (store === undefined) throw new Error('configmaps are not served');
  return { server, client, collector, clock, storage, prefix: collectionPrefix(store.info, NAMESPACE), close: () => server.close() };
}

/** Creates one ConfigMap owned by `owner` (if given) and returns a reference to it. */
export async function createConfigMap(client: ApiClient, name: string, owner?: OwnerReference): Promise<OwnerReference> {
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(owner === undefined ? {} : { ownerReferences: [owner] }) },
    data: { key: 'value' },
  };
  const created = await client.create(CONFIGMAPS, NAMESPACE, obj);
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: created.metadata.uid ?? '' };
}

/** Creates `count` ConfigMaps named `<prefix>-<i>` owned by `owner`, a batch at a time. */
export async function createDependents(client: ApiClient, prefix: string, count: number, owner: OwnerReference): Promise<OwnerReference[]> {
  const created: OwnerReference[] = [];
  for (let i = 0; i < count; i += CREATE_BATCH) {
    const batch = Array.from({ length: Math.min(CREATE_BATCH, count - i) }, (_, j) => createConfigMap(client, `${prefix}-${i + j}`, owner));
    created.push(...(await Promise.all(batch)));
  }
  return created;
}

/** Waits until the collector's graph holds each owner with all its dependents, so no setup work is timed. */
export async function waitForGraph(
  collector: GarbageCollector,
  owners: readonly { uid: string; dependents: number }[],
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  const complete = (): boolean =>
    owners.every(({ uid, dependents }) => {
      const node = collector.builder.graph.get(uid);
      return node !== undefined && !node.virtual && node.dependents.size === dependents;
    });
  while (!complete()) {
    if (performance.now() > deadline) throw new Error('the collector did not observe the fixture in time');
    await new Promise((r) => setTimeout(r, 5));
  }
  // Let the queues drain whatever the adds scheduled (nothing is expected), so the timed part starts idle.
  await new Promise((r) => setTimeout(r, 20));
}

/** Waits (a turn of the event loop at a time) until none of `uids` is in the collector's graph any more. */
export async function waitForGraphToDrop(collector: GarbageCollector, uids: readonly string[], timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let left = [...uids];
  for (;;) {
    left = left.filter((uid) => collector.builder.graph.get(uid) !== undefined);
    if (left.length === 0) return;
    if (performance.now() > deadline) throw new Error(`the collector's graph still holds ${left.length} deleted objects`);
    await new Promise((r) => setImmediate(r));
  }
}
