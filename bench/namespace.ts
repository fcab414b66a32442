import type { KubeObject } from '../src/api/types.js';
import { createInProcessClient } from '../src/server/in-process-client.js';
import type { ApiClient, ResourceRef } from '../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../src/kinds/definitions.js';
import { collectionPrefix } from '../src/registry/keys.js';
import { type ApiServer, startApiServer } from '../src/server/api-server.js';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { createDeletionClock, type DeletionClock } from './deletion-clock.js';
import { median } from './stats.js';

/**
 * Issue 11's figure: a namespace holding 10,000 objects across 10 resource types, from its DELETE until the
 * namespace itself is gone, in memory and in-process with the namespace controller and the garbage collector
 * running. The baseline, measured in the same run, deletes the same objects one by one through the same client.
 */
const NAME = 'ns-bench';
const PER_KIND = 1000;
const ROUNDS = 3;
const TARGET_MS = 2000;
const CREATE_BATCH = 200;
const TIMEOUT_MS = 60_000;
const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

interface Kind {
  readonly ref: ResourceRef;
  readonly make: (name: string) => KubeObject;
}

const labels = { app: 'bench' };
const podSpec = { restartPolicy: 'Never', containers: [{ name: 'c', image: 'nginx' }] };
// Jobs' pods may not restart Always, and ReplicaSets' and Deployments' pods must (pod template validation).
const jobTemplate = { metadata: { labels }, spec: podSpec };
const template = { metadata: { labels }, spec: { ...podSpec, restartPolicy: 'Always' } };
const core = (resource: string): ResourceRef => ({ group: '', version: 'v1', resource });

/** Ten namespaced kinds; pods are unscheduled, so none of them waits out a grace period (R2.17). */
const KINDS: readonly Kind[] = [
  { ref: core('configmaps'), make: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }) },
  { ref: core('secrets'), make: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', data: { k: 'dg==' } }) },
  { ref: core('serviceaccounts'), make: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }) },
  {
    ref: core('services'),
    make: (name) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: labels, ports: [{ port: 80 }] } }),
  },
  {
    ref: core('endpoints'),
    make: (name) => ({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }],
    }),
  },
  {
    ref: core('persistentvolumeclaims'),
    make: (name) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }),
  },
  { ref: core('pods'), make: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: podSpec }) },
  {
    ref: { group: 'apps', version: 'v1', resource: 'deployments' },
    make: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: { selector: { matchLabels: labels }, template },
    }),
  },
  {
    ref: { group: 'apps', version: 'v1', resource: 'replicasets' },
    make: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name },
      spec: { selector: { matchLabels: labels }, template },
    }),
  },
  {
    ref: { group: 'batch', version: 'v1', resource: 'jobs' },
    make: (name) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: jobTemplate } }),
  },
];

interface Fixture {
  readonly server: ApiServer;
  readonly client: ApiClient;
  readonly clock: DeletionClock;
  /** Storage key of the bench namespace itself. */
  readonly namespaceKey: string;
  readonly objects: readonly { kind: Kind; name: string }[];
}

/** An in-memory server with its controllers, and a namespace filled with PER_KIND objects of every kind. */
async function startFixture(): Promise<Fixture> {
  const clock = createDeletionClock(createMemoryBackend());
  // No `default` ServiceAccount appears in the namespace: both variants delete exactly the objects created here.
  // The workload and endpoint controllers stay off: the figure is the deletion of these 10,000 objects, not of the
  // pods, ReplicaSets, Endpoints and slices the controllers would add (kept comparable with earlier runs).
  const server = await startApiServer({
    backend: clock.backend,
    port: 0,
    controllers: {
      serviceAccounts: false,
      replicaSetController: false,
      replicationController: false,
      deploymentController: false,
      endpointsController: false,
      endpointSliceController: false,
    },
  });
  const client = createInProcessClient(server.registry, BUILTIN_DEFINITIONS);
  await client.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAME } });
  const objects = KINDS.flatMap((kind) => Array.from({ length: PER_KIND }, (_, i) => ({ kind, name: `${kind.ref.resource}-${i}` })));
  for (let i = 0; i < objects.length; i += CREATE_BATCH) {
    await Promise.all(objects.slice(i, i + CREATE_BATCH).map(({ kind, name }) => client.create(kind.ref, NAME, kind.make(name))));
  }
  const namespaces = server.registry.lookup('', 'v1', 'namespaces');
  if (namespaces === undefined) throw new Error('namespaces are not served');
  return { server, client, clock, namespaceKey: `${collectionPrefix(namespaces.info, undefined)}${NAME}`, objects };
}

async function assertEmpty(client: ApiClient): Promise<void> {
  for (const kind of KINDS) {
    const left = (await client.list(kind.ref, NAME)).items.length;
    if (left !== 0) throw new Error(`${left} ${kind.ref.resource} remain in ${NAME}`);
  }
}

async function untilEmpty(client: ApiClient): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  for (;;) {
    try {
      await assertEmpty(client);
      return;
    } catch (err) {
      if (performance.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

/** From the namespace DELETE until storage has removed the namespace (after everything in it). */
async function namespaceDeletion(): Promise<number> {
  const f = await startFixture();
  try {
    const gone = f.clock.expect(f.namespaceKey, 1, TIMEOUT_MS);
    const started = performance.now();
    await f.client.delete(NAMESPACES, undefined, NAME);
    const ms = (await gone) - started;
    await assertEmpty(f.client);
    return ms;
  } finally {
    await f.server.close();
  }
}

/** The same objects deleted one at a time, in a loop, with the propagation the namespace controller uses. */
async function directDeletion(): Promise<number> {
  const f = await startFixture();
  try {
    const started = performance.now();
    for (const { kind, name } of f.objects) await f.client.delete(kind.ref, NAME, name, { propagationPolicy: 'Background' });
    // Claims leave storage once the PVC protection controller has released them (R6.2), as in the namespace run.
    await untilEmpty(f.client);
    return performance.now() - started;
  } finally {
    await f.server.close();
  }
}

/** Rows for bench/index.ts's table (measure, Cascade, baseline, ratio); also prints the verdict. */
export async function benchNamespaceDeletion(): Promise<string[][]> {
  const namespace: number[] = [];
  const direct: number[] = [];
  // Alternate the two so that noise from other work on the machine hits both alike.
  for (let round = 0; round < ROUNDS; round++) {
    namespace.push(await namespaceDeletion());
    direct.push(await directDeletion());
  }
  const ms = median(namespace);
  const baseline = median(direct);
  const verdict = ms < TARGET_MS ? 'PASS' : 'FAIL';
  const total = PER_KIND * KINDS.length;
  process.stdout.write(
    `namespace deletion, ${total} objects × ${KINDS.length} kinds: ${ms.toFixed(0)} ms (runs ${namespace.map((v) => v.toFixed(0)).join(', ')}); ` +
      `direct deletes ${baseline.toFixed(0)} ms; target < ${TARGET_MS} ms: ${verdict}\n`,
  );
  return [
    [
      `namespace DELETE → namespace gone, ${total} objects across ${KINDS.length} resource types, in memory (median of ${ROUNDS}; target < ${TARGET_MS} ms: ${verdict})`,
      `${ms.toFixed(0)} ms`,
      `${baseline.toFixed(0)} ms (the same objects deleted one by one through the client, Background)`,
      `${(ms / baseline).toFixed(2)}×`,
    ],
  ];
}
