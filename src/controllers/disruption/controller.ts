import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { budgetStatus, DELETION_TIMEOUT_MS, expectedCounts, healthyPods, needsControllerScale, pendingDisruptions } from './budget.js';

const PDBS: ResourceRef = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
/** The controllers whose replicas a budget's expected count is read from (finders of the Go controller). */
const CONTROLLERS: Readonly<Record<string, ResourceRef>> = {
  'apps/ReplicaSet': { group: 'apps', version: 'v1', resource: 'replicasets' },
  'apps/Deployment': { group: 'apps', version: 'v1', resource: 'deployments' },
  'apps/StatefulSet': { group: 'apps', version: 'v1', resource: 'statefulsets' },
  '/ReplicationController': { group: '', version: 'v1', resource: 'replicationcontrollers' },
};

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});
const key = (obj: KubeObject): string => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

function controllerOf(obj: KubeObject): { group: string; kind: string; name: string; uid: string } | undefined {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (ref === undefined) return undefined;
  const group = ref.apiVersion.includes('/') ? (ref.apiVersion.split('/')[0] as string) : '';
  return { group, kind: ref.kind, name: ref.name, uid: ref.uid };
}

/**
 * kube-controller-manager's disruption controller: keeps each PodDisruptionBudget's status (expected, desired and
 * current healthy pods, disruptions allowed, the DisruptionAllowed condition) from the pods it selects and, for
 * percentages and maxUnavailable, their controllers' replicas; evictions recorded in disruptedPods count as gone
 * until the pod is deleted or two minutes pass.
 */
export class DisruptionController {
  private readonly client: ApiClient;
  private readonly pdbs: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly log: (message: string) => void;
  private worker: Promise<void> | undefined;

  constructor(options: { client: ApiClient; log?: (message: string) => void }) {
    this.client = options.client;
    this.log = options.log ?? (() => {});
    const byNamespace = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.pdbs = createSharedInformer(this.client, PDBS, undefined, { indexers: byNamespace });
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers: byNamespace });
    const enqueue = (pdb: KubeObject): void => this.queue.add(key(pdb));
    this.pdbs.addEventHandler({ onAdd: enqueue, onUpdate: (_old, pdb) => enqueue(pdb) });
    const podChanged = (pod: KubeObject): void => {
      for (const pdb of this.pdbs.store.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
        if (this.selects(pdb, pod)) enqueue(pdb);
      }
    };
    this.pods.addEventHandler({ onAdd: podChanged, onUpdate: (_old, pod) => podChanged(pod), onDelete: podChanged });
  }

  private selects(pdb: KubeObject, pod: KubeObject): boolean {
    try {
      return labelSelectorAsSelector(asLabelSelectorObject(record(pdb.spec).selector)).matches(pod.metadata.labels);
    } catch {
      return false;
    }
  }

  async start(): Promise<void> {
    this.pdbs.start();
    this.pods.start();
    await Promise.all([this.pdbs.whenSynced(), this.pods.whenSynced()]);
    this.worker = this.run();
  }

  private async run(): Promise<void> {
    for (;;) {
      const item = await this.queue.get();
      if (item === undefined) return;
      try {
        await this.sync(item);
        this.queue.forget(item);
      } catch (err) {
        this.log(`disruption: ${item}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addRateLimited(item);
      } finally {
        this.queue.done(item);
      }
    }
  }

  private async sync(item: string): Promise<void> {
    const [namespace = '', name = ''] = item.split('/');
    const pdb = this.pdbs.store.get(namespace, name);
    if (pdb === undefined || pdb.metadata.deletionTimestamp !== undefined) return;
    const pods = this.pods.store.byIndex(NAMESPACE_INDEX, namespace).filter((p) => this.selects(pdb, p));
    const now = Date.now();
    const disrupted = pendingDisruptions(pdb, pods, now);
    let failure: string | undefined;
    let counts = { expected: 0, desiredHealthy: 0 };
    try {
      counts = expectedCounts(pdb, pods.length, needsControllerScale(pdb) ? await this.expectedScale(namespace, pods) : 0);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const status = budgetStatus(pdb, { ...counts, currentHealthy: healthyPods(pods, disrupted) }, disrupted, stamp, failure);
    // A recorded eviction expires without any event: look again when the oldest does.
    const times = Object.values(disrupted).map((t) => Date.parse(t) + DELETION_TIMEOUT_MS - now);
    if (times.length > 0) this.queue.addAfter(item, Math.max(0, Math.min(...times)));
    if (JSON.stringify(status) === JSON.stringify(pdb.status)) return;
    try {
      await this.client.update(PDBS, namespace, { ...pdb, status }, 'status');
    } catch (err) {
      // An eviction changed the budget meanwhile: its update event brings another pass.
      if (!(err instanceof StatusError && (err.code === 409 || err.code === 404))) throw err;
    }
  }

  /** getExpectedScale: the replicas of every distinct controller of the pods (a Deployment's through its ReplicaSet). */
  private async expectedScale(namespace: string, pods: readonly KubeObject[]): Promise<number> {
    const owners = new Set<string>();
    const replicasByController = new Map<string, number>();
    for (const pod of pods) {
      const owner = controllerOf(pod);
      if (owner === undefined || owners.has(owner.uid)) continue;
      owners.add(owner.uid);
      const ref = CONTROLLERS[`${owner.group}/${owner.kind}`];
      if (ref === undefined) throw new Error(`found no controllers for pod "${pod.metadata.name}"`);
      let controller = await this.client.get(ref, namespace, owner.name);
      const parent = owner.kind === 'ReplicaSet' ? controllerOf(controller) : undefined;
      if (parent?.kind === 'Deployment')
        controller = await this.client.get(CONTROLLERS['apps/Deployment'] as ResourceRef, namespace, parent.name);
      const replicas = record(controller.spec).replicas;
      replicasByController.set(controller.metadata.uid ?? '', typeof replicas === 'number' ? replicas : 1);
    }
    let total = 0;
    for (const replicas of replicasByController.values()) total += replicas;
    return total;
  }

  async stop(): Promise<void> {
    await Promise.all([this.pdbs.stop(), this.pods.stop()]);
    this.queue.shutDown();
    await this.worker;
  }
}
