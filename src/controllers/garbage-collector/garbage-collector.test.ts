import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../api/errors.js';
import type { KubeObject, OwnerReference } from '../../api/types.js';
import { createInProcessClient } from '../../server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { Registry } from '../../registry/registry.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { GarbageCollectorWorkers, type NodeWorkQueue } from './garbage-collector.js';
import type { GraphNode } from './graph.js';
import { type Coordinates, GraphBuilder } from './graph-builder.js';
import { GcOperations } from './operations.js';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };
const CONFIGMAP: Coordinates = { apiVersion: 'v1', kind: 'ConfigMap' };
const NAMESPACE = 'gc-unit';

/** A queue that only records what was added: the tests call the workers by hand. */
function recordingQueue(): NodeWorkQueue & { readonly added: GraphNode[] } {
  const added: GraphNode[] = [];
  return {
    added,
    add: (node) => added.push(node),
    get: async () => undefined,
    tryGet: () => undefined,
    done: () => {},
    forget: () => {},
    addRateLimited: (node) => added.push(node),
    addAfter: (node) => added.push(node),
  };
}

/** The server's loopback client over a fresh in-memory registry, counting the collector's live reads. */
async function setup(): Promise<{
  client: ApiClient;
  reads: string[];
  builder: GraphBuilder;
  workers: GarbageCollectorWorkers;
  queue: ReturnType<typeof recordingQueue>;
}> {
  const client = createInProcessClient(new Registry({ backend: createMemoryBackend(), resources: BUILTIN_RESOURCES }), BUILTIN_DEFINITIONS);
  const reads: string[] = [];
  const counted: ApiClient = {
    ...client,
    get(ref, namespace, name) {
      reads.push(name);
      return client.get(ref, namespace, name);
    },
  };
  const ops = new GcOperations(counted);
  ops.setResources(await client.discover());
  const queue = recordingQueue();
  const builder = new GraphBuilder(queue, queue, () => {});
  return { client, reads, builder, workers: new GarbageCollectorWorkers(builder, ops), queue };
}

async function createConfigMap(client: ApiClient, name: string, owners: OwnerReference[] = []): Promise<KubeObject> {
  const metadata = { name, namespace: NAMESPACE, ...(owners.length > 0 ? { ownerReferences: owners } : {}) };
  return client.create(CONFIGMAPS, NAMESPACE, { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { key: 'value' } });
}

const refTo = (obj: KubeObject): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: obj.metadata.name ?? '',
  uid: obj.metadata.uid ?? '',
});

/** Owner and dependent observed by the builder, then the owner deleted and that deletion observed (R4.15). */
async function ownerDeletedUnderDependent(s: Awaited<ReturnType<typeof setup>>): Promise<{ dependent: KubeObject; node: GraphNode }> {
  const owner = await createConfigMap(s.client, 'owner');
  const dependent = await createConfigMap(s.client, 'dependent', [refTo(owner)]);
  s.builder.process({ type: 'add', object: owner, coordinates: CONFIGMAP });
  s.builder.process({ type: 'add', object: dependent, coordinates: CONFIGMAP });
  await s.client.delete(CONFIGMAPS, NAMESPACE, 'owner');
  s.builder.process({ type: 'delete', object: owner, coordinates: CONFIGMAP });
  const node = s.builder.graph.get(dependent.metadata.uid ?? '');
  assert.ok(node !== undefined && s.queue.added.includes(node), 'the dependent is queued once its owner is gone');
  return { dependent, node };
}

test('a dependent whose observed owners are all verified absent is deleted without a live read of it (R4.11, R4.30)', async () => {
  const s = await setup();
  const { node } = await ownerDeletedUnderDependent(s);
  assert.equal(await s.workers.attemptToDeleteItem(node, s.queue), 'forget');
  assert.deepEqual(s.reads, []);
  await assert.rejects(s.client.get(CONFIGMAPS, NAMESPACE, 'dependent'), (err) => err instanceof StatusError && err.code === 404);
  assert.equal(s.workers.deletions.count, 1);
});

test('a dependent that gained a live owner after it was observed is kept, and only the dangling reference goes (R4.27)', async () => {
  const s = await setup();
  const { dependent, node } = await ownerDeletedUnderDependent(s);
  // The informer has not delivered this update yet: the graph still holds the state with only the deleted owner.
  const keeper = await createConfigMap(s.client, 'keeper');
  await s.client.update(CONFIGMAPS, NAMESPACE, {
    ...dependent,
    metadata: { ...dependent.metadata, ownerReferences: [...(dependent.metadata.ownerReferences ?? []), refTo(keeper)] },
  });
  assert.equal(await s.workers.attemptToDeleteItem(node, s.queue), 'forget');
  const live = await s.client.get(CONFIGMAPS, NAMESPACE, 'dependent');
  assert.deepEqual(
    live.metadata.ownerReferences?.map((r) => r.name),
    ['keeper'],
  );
  assert.equal(s.workers.deletions.count, 0);
  assert.ok(s.reads.includes('dependent'), 'the conflict sends the worker to a live read');
});

test('a dependent deleted and recreated under the same name is not deleted through the old observation', async () => {
  const s = await setup();
  const { node } = await ownerDeletedUnderDependent(s);
  await s.client.delete(CONFIGMAPS, NAMESPACE, 'dependent');
  const recreated = await createConfigMap(s.client, 'dependent');
  assert.equal(await s.workers.attemptToDeleteItem(node, s.queue), 'forget');
  const live = await s.client.get(CONFIGMAPS, NAMESPACE, 'dependent');
  assert.equal(live.metadata.uid, recreated.metadata.uid);
  assert.equal(s.workers.deletions.count, 0);
});
