import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { claimObjects, controllerRefOf } from '../workloads/controller-ref.js';
import { eventRecorder } from '../workloads/events.js';
import { ControllerExpectations } from '../workloads/expectations.js';
import { PodControl } from '../workloads/pod-control.js';
import { podsToDelete } from '../workloads/pod-ranking.js';
import { isPodActive, isPodReady, numberOr, podFromTemplate } from '../workloads/pods.js';
import { isBeingRestored } from '../workloads/restoring.js';
import type { ReplicaKind } from './kinds.js';
import { calculateStatus, type ManageError, sameStatus } from './status.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
/** BurstReplicas: the most pods created or deleted for one owner in one sync (R12.27). */
export const BURST_REPLICAS = 500;

export interface ReplicaSetControllerOptions {
  readonly client: ApiClient;
  readonly kind: ReplicaKind;
  /** --concurrent-replicaset-syncs / --concurrent-rc-syncs (default 5). */
  readonly workers?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

/** Runs fn `count` times in batches of 1, 2, 4, …; stops after the first batch with a failure (slowStartBatch). */
export async function slowStartBatch(count: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let size = Math.min(remaining, 1); size > 0; size = Math.min(2 * size, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: size }, () => fn()));
    let error: unknown;
    for (const r of results) {
      if (r.status === 'fulfilled') successes++;
      else error ??= r.reason;
    }
    if (error !== undefined) return { successes, error };
    remaining -= size;
  }
  return { successes };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The ReplicaSet controller (and, with REPLICATION_CONTROLLER, the replication controller): keeps
 * `spec.replicas` active pods matching the selector, claimed through controller references, and reports them in
 * status (R12.38–R12.44). Reads come from informer caches; writes go through its own client.
 */
export class ReplicaSetController {
  readonly expectations: ControllerExpectations;
  private readonly client: ApiClient;
  private readonly kind: ReplicaKind;
  private readonly owners: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly workers: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly podControl: PodControl;
  private running: Promise<void>[] = [];

  constructor(options: ReplicaSetControllerOptions) {
    this.client = options.client;
    this.kind = options.kind;
    this.workers = options.workers ?? 5;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.expectations = new ControllerExpectations(this.now);
    this.podControl = new PodControl(this.client, eventRecorder(this.client, this.kind.component, this.log));
    const onError = (err: unknown): void => this.log(`${this.kind.component}: ${errorText(err)}`);
    const indexers = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.owners = createSharedInformer(this.client, this.kind.resource, undefined, { indexers, onError });
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers, onError });
    this.owners.addEventHandler({
      onAdd: (owner) => this.enqueue(owner),
      onUpdate: (_old, owner) => this.enqueue(owner),
      onDelete: (owner) => {
        this.expectations.delete(objectKey(owner));
        this.enqueue(owner);
      },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podAdded(pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (pod) => this.podDeleted(pod),
    });
  }

  async start(): Promise<void> {
    this.owners.start();
    this.pods.start();
    await Promise.all([this.owners.whenSynced(), this.pods.whenSynced()]);
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => this.log(`${this.kind.component}: syncing ${key}: ${errorText(err)}`),
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.owners.stop(), this.pods.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  /** Waits until every queued sync has run (tests). */
  async idle(): Promise<void> {
    while (this.queue.len() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  private enqueue(owner: KubeObject, afterMs = 0): void {
    const key = objectKey(owner);
    if (afterMs > 0) this.queue.addAfter(key, afterMs);
    else this.queue.add(key);
  }

  /** The owner a controller reference names, if it is one of ours and still the same object. */
  private resolveOwner(pod: KubeObject): KubeObject | undefined {
    const ref = controllerRefOf(pod);
    if (ref === undefined || ref.kind !== this.kind.kind) return undefined;
    const owner = this.owners.store.get(pod.metadata.namespace, ref.name);
    return owner?.metadata.uid === ref.uid ? owner : undefined;
  }

  /** Orphans wake every owner that could adopt them. */
  private matchingOwners(pod: KubeObject): KubeObject[] {
    return this.owners.store
      .byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')
      .filter((owner) => this.kind.selector(owner).matches(pod.metadata.labels));
  }

  private podAdded(pod: KubeObject): void {
    if (pod.metadata.deletionTimestamp !== undefined) {
      // Seen for the first time already terminating (a restart of the informer): a deletion, not a creation.
      this.podDeleted(pod);
      return;
    }
    if (controllerRefOf(pod) !== undefined) {
      const owner = this.resolveOwner(pod);
      if (owner === undefined) return;
      this.expectations.creationObserved(objectKey(owner));
      this.enqueue(owner);
      return;
    }
    for (const owner of this.matchingOwners(pod)) this.enqueue(owner);
  }

  private podUpdated(old: KubeObject, pod: KubeObject): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp !== undefined && old.metadata.deletionTimestamp === undefined) {
      // Graceful deletion: the deletion counts now, so the replacement need not wait for the pod to go (R12.26).
      this.podDeleted(pod);
      if (labelsChanged) this.podDeleted(old);
      return;
    }
    const oldRef = controllerRefOf(old);
    const ref = controllerRefOf(pod);
    if (oldRef !== undefined && oldRef.uid !== ref?.uid) {
      const oldOwner = this.resolveOwner(old);
      if (oldOwner !== undefined) this.enqueue(oldOwner);
    }
    if (ref !== undefined) {
      const owner = this.resolveOwner(pod);
      if (owner === undefined) return;
      this.enqueue(owner);
      // A pod that just became ready turns available minReadySeconds later without any further event (R12.43).
      const minReadySeconds = numberOr(isObject(owner.spec) ? owner.spec.minReadySeconds : undefined, 0);
      if (minReadySeconds > 0 && !isPodReady(old) && isPodReady(pod)) this.enqueue(owner, (minReadySeconds + 1) * 1000);
      return;
    }
    if (labelsChanged || oldRef !== undefined) for (const owner of this.matchingOwners(pod)) this.enqueue(owner);
  }

  private podDeleted(pod: KubeObject): void {
    const owner = this.resolveOwner(pod);
    if (owner === undefined) return;
    const key = objectKey(owner);
    this.expectations.deletionObserved(key, objectKey(pod));
    this.enqueue(owner);
  }

  /** syncReplicaSet. */
  async sync(key: string): Promise<ItemResult | undefined> {
    const owner = this.owners.store.getByKey(key);
    if (owner === undefined) {
      this.expectations.delete(key);
      return undefined;
    }
    if (isBeingRestored(owner)) return undefined;
    const needsSync = this.expectations.satisfied(key);
    const selector = this.kind.selector(owner);
    const candidates = this.pods.store.byIndex(NAMESPACE_INDEX, owner.metadata.namespace ?? '').filter(isPodActive);
    const pods = await claimObjects(candidates, {
      client: this.client,
      dependents: PODS,
      ownerResource: this.kind.resource,
      owner,
      matches: (pod) => selector.matches(pod.metadata.labels),
    });
    let failure: ManageError | undefined;
    if (needsSync && owner.metadata.deletionTimestamp === undefined) failure = await this.manageReplicas(key, owner, pods);
    const status = calculateStatus(owner, pods, failure, this.now());
    const written = sameStatus(owner, status) ? owner : await this.writeStatus(owner, status);
    if (failure !== undefined) throw new Error(failure.message);
    const spec = isObject(written.spec) ? written.spec : {};
    const minReadySeconds = numberOr(spec.minReadySeconds, 0);
    const replicas = numberOr(spec.replicas, 1);
    const ready = numberOr(status.readyReplicas, 0);
    const available = numberOr(status.availableReplicas, 0);
    if (minReadySeconds > 0 && ready === replicas && available !== replicas) return { requeueAfterMs: minReadySeconds * 1000 };
    return undefined;
  }

  /** manageReplicas: create or delete the difference, at most BURST_REPLICAS at once. */
  private async manageReplicas(key: string, owner: KubeObject, pods: readonly KubeObject[]): Promise<ManageError | undefined> {
    const spec = isObject(owner.spec) ? owner.spec : {};
    const diff = pods.length - numberOr(spec.replicas, 1);
    if (diff < 0) {
      const count = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, count);
      const template = isObject(spec.template) ? spec.template : {};
      const { successes, error } = await slowStartBatch(count, () => this.createPod(owner, template));
      // Pods that failed or were never attempted will never be observed.
      for (let skipped = count - successes; skipped > 0; skipped--) this.expectations.creationObserved(key);
      return error === undefined ? undefined : { reason: 'FailedCreate', message: errorText(error) };
    }
    if (diff > 0) {
      const count = Math.min(diff, BURST_REPLICAS);
      const doomed = podsToDelete(pods, this.relatedPods(owner), count, this.now());
      this.expectations.expectDeletions(key, doomed.map(objectKey));
      const results = await Promise.allSettled(doomed.map((pod) => this.deletePod(key, owner, pod)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      return failed === undefined ? undefined : { reason: 'FailedDelete', message: errorText(failed.reason) };
    }
    return undefined;
  }

  private async createPod(owner: KubeObject, template: Record<string, unknown>): Promise<void> {
    const pod = podFromTemplate(template, owner);
    if (Object.keys(pod.metadata.labels ?? {}).length === 0) throw new Error('unable to create pods, no labels');
    await this.podControl.create(owner, pod);
  }

  private deletePod(key: string, owner: KubeObject, pod: KubeObject): Promise<void> {
    return this.podControl.delete(owner, pod.metadata.namespace, pod.metadata.name ?? '', () =>
      this.expectations.deletionObserved(key, objectKey(pod)),
    );
  }

  /** Pods of this owner and of its siblings under the same controller (a Deployment's ReplicaSets), for ranking. */
  private relatedPods(owner: KubeObject): KubeObject[] {
    const parent = controllerRefOf(owner)?.uid;
    const related = new Set<string>([owner.metadata.uid ?? '']);
    if (parent !== undefined) {
      for (const sibling of this.owners.store.byIndex(NAMESPACE_INDEX, owner.metadata.namespace ?? '')) {
        if (controllerRefOf(sibling)?.uid === parent) related.add(sibling.metadata.uid ?? '');
      }
    }
    return this.pods.store
      .byIndex(NAMESPACE_INDEX, owner.metadata.namespace ?? '')
      .filter((pod) => isPodActive(pod) && related.has(controllerRefOf(pod)?.uid ?? ''));
  }

  /** updateReplicaSetStatus: one retry on a conflict, against a fresh read. */
  private async writeStatus(owner: KubeObject, status: Record<string, unknown>): Promise<KubeObject> {
    try {
      return await this.client.update(this.kind.resource, owner.metadata.namespace, { ...owner, status }, 'status');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
      const fresh = await this.client.get(this.kind.resource, owner.metadata.namespace, owner.metadata.name ?? '');
      const retried = { ...status, observedGeneration: fresh.metadata.generation };
      return this.client.update(this.kind.resource, owner.metadata.namespace, { ...fresh, status: retried }, 'status');
    }
  }
}
