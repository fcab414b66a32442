import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { LabelSelector } from '../../selectors/label-selector.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { CONTROLLER_REVISIONS } from '../history/controller-history.js';
import { claimObjects, controllerRefOf } from '../workloads/controller-ref.js';
import { type EventRecorder, eventRecorder } from '../workloads/events.js';
import { ControllerExpectations } from '../workloads/expectations.js';
import { PodControl } from '../workloads/pod-control.js';
import { isPodReady, numberOr } from '../workloads/pods.js';
import { isBeingRestored } from '../workloads/restoring.js';
import { specOf } from './daemon-pods.js';
import { FailedPodBackoff } from './failed-pod-backoff.js';
import { planManage, planRollingUpdate } from './plan.js';
import { PODS, syncNodes } from './pod-writes.js';
import { cleanupHistory, constructHistory, revisionHash } from './revisions.js';
import { computeDaemonStatus, nextDaemonStatus } from './status.js';

export const DAEMON_SETS: ResourceRef = { group: 'apps', version: 'v1', resource: 'daemonsets' };
const NODES: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };
const COMPONENT = 'daemonset-controller';

export interface DaemonSetControllerOptions {
  readonly client: ApiClient;
  /** --concurrent-daemonset-syncs (default 2). */
  readonly workers?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function selectorOf(ds: KubeObject): LabelSelector | undefined {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(specOf(ds).selector));
  } catch {
    return undefined;
  }
}

/**
 * The DaemonSet controller (R12.92–R12.99): one pod per eligible node, created unbound and pinned by node affinity
 * for the scheduler, rolled out by RollingUpdate (maxUnavailable / maxSurge) or OnDelete, with status.
 */
export class DaemonSetController {
  readonly expectations: ControllerExpectations;
  private readonly client: ApiClient;
  private readonly sets: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly revisions: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly workers: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly record: EventRecorder;
  private readonly podControl: PodControl;
  private readonly backoff: FailedPodBackoff;
  private running: Promise<void>[] = [];

  constructor(options: DaemonSetControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 2;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.expectations = new ControllerExpectations(this.now);
    this.backoff = new FailedPodBackoff(this.now);
    this.record = eventRecorder(this.client, COMPONENT, this.log);
    this.podControl = new PodControl(this.client, this.record);
    const onError = (err: unknown): void => this.log(`${COMPONENT}: ${errorText(err)}`);
    const indexers = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.sets = createSharedInformer(this.client, DAEMON_SETS, undefined, { indexers, onError });
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers, onError });
    this.nodes = createSharedInformer(this.client, NODES, undefined, { onError });
    this.revisions = createSharedInformer(this.client, CONTROLLER_REVISIONS, undefined, { indexers, onError });
    this.sets.addEventHandler({
      onAdd: (ds) => this.enqueue(ds),
      onUpdate: (_old, ds) => this.enqueue(ds),
      onDelete: (ds) => {
        this.expectations.delete(objectKey(ds));
        this.enqueue(ds);
      },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podAdded(pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (pod) => this.podDeleted(pod),
    });
    // Any node change may change where daemon pods belong: labels, taints, cordons, arrivals and departures.
    const allSets = (): void => {
      for (const ds of this.sets.store.list()) this.enqueue(ds);
    };
    this.nodes.addEventHandler({
      onAdd: allSets,
      onUpdate: (old, node) => {
        if (JSON.stringify([old.metadata.labels, old.spec]) !== JSON.stringify([node.metadata.labels, node.spec])) allSets();
      },
      onDelete: allSets,
    });
  }

  private informers(): SharedInformer[] {
    return [this.sets, this.pods, this.nodes, this.revisions];
  }

  async start(): Promise<void> {
    for (const informer of this.informers()) informer.start();
    await Promise.all(this.informers().map((i) => i.whenSynced()));
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => this.log(`${COMPONENT}: syncing ${key}: ${errorText(err)}`),
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers().map((i) => i.stop()));
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  private enqueue(ds: KubeObject, afterMs = 0): void {
    if (afterMs > 0) this.queue.addAfter(objectKey(ds), afterMs);
    else this.queue.add(objectKey(ds));
  }

  private resolveOwner(pod: KubeObject): KubeObject | undefined {
    const ref = controllerRefOf(pod);
    if (ref === undefined || ref.kind !== 'DaemonSet') return undefined;
    const ds = this.sets.store.get(pod.metadata.namespace, ref.name);
    return ds?.metadata.uid === ref.uid ? ds : undefined;
  }

  private wakeAdopters(pod: KubeObject): void {
    for (const ds of this.sets.store.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      if (selectorOf(ds)?.matches(pod.metadata.labels) === true) this.enqueue(ds);
    }
  }

  private podAdded(pod: KubeObject): void {
    if (pod.metadata.deletionTimestamp !== undefined) {
      this.podDeleted(pod);
      return;
    }
    if (controllerRefOf(pod) === undefined) {
      this.wakeAdopters(pod);
      return;
    }
    const ds = this.resolveOwner(pod);
    if (ds === undefined) return;
    this.expectations.creationObserved(objectKey(ds));
    this.enqueue(ds);
  }

  private podUpdated(old: KubeObject, pod: KubeObject): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp !== undefined && old.metadata.deletionTimestamp === undefined) {
      // A graceful deletion counts when it starts, not when the pod finally goes.
      this.podDeleted(pod);
      return;
    }
    const oldOwner = this.resolveOwner(old);
    const owner = this.resolveOwner(pod);
    if (oldOwner !== undefined && oldOwner !== owner) this.enqueue(oldOwner);
    if (owner === undefined) {
      if (controllerRefOf(pod) === undefined) this.wakeAdopters(pod);
      return;
    }
    this.enqueue(owner);
    const minReadySeconds = numberOr(specOf(owner).minReadySeconds, 0);
    if (minReadySeconds > 0 && !isPodReady(old) && isPodReady(pod)) this.enqueue(owner, (minReadySeconds + 1) * 1000);
  }

  private podDeleted(pod: KubeObject): void {
    const ds = this.resolveOwner(pod);
    if (ds === undefined) return;
    this.expectations.deletionObserved(objectKey(ds), objectKey(pod));
    this.enqueue(ds);
  }

  /** syncDaemonSet. */
  async sync(key: string): Promise<ItemResult | undefined> {
    const ds = this.sets.store.getByKey(key);
    if (ds === undefined) {
      this.expectations.delete(key);
      this.backoff.forget(key);
      return undefined;
    }
    if (isBeingRestored(ds)) return undefined;
    const selector = selectorOf(ds);
    if (selector === undefined || selector.empty) {
      this.record(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return undefined;
    }
    if (ds.metadata.deletionTimestamp !== undefined) {
      // Upstream writes nothing here (W2); Cascade acknowledges the deletion's generation for extension A (R12.168).
      await this.writeStatus(ds, ds.status as Record<string, unknown> | undefined, true);
      return undefined;
    }
    const namespace = ds.metadata.namespace ?? '';
    const owned = await claimObjects(this.revisions.store.byIndex(NAMESPACE_INDEX, namespace), {
      client: this.client,
      dependents: CONTROLLER_REVISIONS,
      ownerResource: DAEMON_SETS,
      owner: ds,
      matches: (rev) => selector.matches(rev.metadata.labels),
    });
    const history = await constructHistory(this.client, ds, owned);
    const hash = revisionHash(history.current);
    const pods = await claimObjects(this.pods.store.byIndex(NAMESPACE_INDEX, namespace), {
      client: this.client,
      dependents: PODS,
      ownerResource: DAEMON_SETS,
      owner: ds,
      matches: (pod) => selector.matches(pod.metadata.labels),
    });
    const nodes = this.nodes.store.list();
    const now = this.now();
    const satisfied = this.expectations.satisfied(key);
    let failure: unknown;
    if (satisfied) {
      try {
        await this.manage(key, ds, nodes, pods, hash, now);
      } catch (err) {
        failure = err;
      }
      if (failure === undefined) await cleanupHistory(this.client, ds, history.old, pods);
    }
    const counts = computeDaemonStatus(ds, nodes, pods, hash, now);
    const status = nextDaemonStatus(ds, counts, satisfied ? ds.metadata.generation : undefined);
    if (history.collisionCount !== numberOr((ds.status as { collisionCount?: number } | undefined)?.collisionCount, 0)) {
      await this.writeStatus(ds, { ...(status ?? (ds.status as Record<string, unknown>)), collisionCount: history.collisionCount }, false);
    } else if (status !== undefined) await this.writeStatus(ds, status, false);
    if (failure !== undefined) throw failure;
    const minReadySeconds = numberOr(specOf(ds).minReadySeconds, 0);
    const retry = this.backoff.nextRetryMs(key);
    if (minReadySeconds > 0 && counts.numberReady !== counts.numberAvailable) return { requeueAfterMs: minReadySeconds * 1000 };
    return retry === undefined ? undefined : { requeueAfterMs: retry };
  }

  /** manage, then (when it changed nothing) the rolling update. */
  private async manage(key: string, ds: KubeObject, nodes: KubeObject[], pods: KubeObject[], hash: string, now: number): Promise<void> {
    const plan = planManage({ ds, nodes, pods, hash, now, mayReplaceFailed: (node) => this.backoff.mayRetry(key, node) });
    for (const e of plan.events) this.record(ds, e.type, e.reason, e.message);
    const base = { podControl: this.podControl, expectations: this.expectations, key, ds, hash };
    await syncNodes({ ...base, createOn: plan.createOn, remove: plan.remove });
    if (!this.expectations.satisfied(key)) return;
    const strategy = specOf(ds).updateStrategy;
    if (isObject(strategy) && strategy.type === 'OnDelete') return;
    const rolling = planRollingUpdate({ ds, nodes, pods, hash, now });
    await syncNodes({ ...base, createOn: rolling.createOn, remove: rolling.remove });
  }

  /** storeDaemonSetStatus: one retry against a fresh read on a conflict. */
  private async writeStatus(ds: KubeObject, status: Record<string, unknown> | undefined, observedOnly: boolean): Promise<void> {
    const write = async (target: KubeObject): Promise<void> => {
      const base = observedOnly ? (isObject(target.status) ? target.status : {}) : (status ?? {});
      const observed = (target.status as { observedGeneration?: number } | undefined)?.observedGeneration ?? 0;
      if (observedOnly && observed >= (target.metadata.generation ?? 0)) return;
      const next = observedOnly ? { ...base, observedGeneration: target.metadata.generation } : base;
      await this.client.update(DAEMON_SETS, target.metadata.namespace, { ...target, status: next }, 'status');
    };
    try {
      await write(ds);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
      await write(await this.client.get(DAEMON_SETS, ds.metadata.namespace, ds.metadata.name ?? ''));
    }
  }
}
