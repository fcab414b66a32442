import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { LabelSelector } from '../../selectors/label-selector.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { CONTROLLER_REVISIONS, podRevisionNames, truncateHistory } from '../history/controller-history.js';
import { claimObjects, controllerRefOf } from '../workloads/controller-ref.js';
import { eventRecorder } from '../workloads/events.js';
import { numberOr } from '../workloads/pods.js';
import { isBeingRestored } from '../workloads/restoring.js';
import { updateStatefulSet } from './control.js';
import { isMemberOf, replicaCount, specOf } from './identity.js';
import { ApiStatefulPodControl, CLAIMS, PODS } from './pod-control.js';
import { statefulSetRevisions } from './revisions.js';
import { completeRollingUpdate, renderStatus, type SetStatus, statusDiffers } from './status.js';

export const STATEFUL_SETS: ResourceRef = { group: 'apps', version: 'v1', resource: 'statefulsets' };
const COMPONENT = 'statefulset-controller';

export interface StatefulSetControllerOptions {
  readonly client: ApiClient;
  /** --concurrent-statefulset-syncs (default 5). */
  readonly workers?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function selectorOf(set: KubeObject): LabelSelector | undefined {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(specOf(set).selector));
  } catch {
    return undefined;
  }
}

/**
 * The StatefulSet controller (R12.78–R12.90): claims the set's pods and ControllerRevisions, keeps the revision
 * history, runs updateStatefulSet and writes status whenever it differs, also while the set is being deleted.
 */
export class StatefulSetController {
  private readonly client: ApiClient;
  private readonly sets: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly revisions: SharedInformer;
  private readonly claims: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly workers: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly podControl: ApiStatefulPodControl;
  private running: Promise<void>[] = [];

  constructor(options: StatefulSetControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    const onError = (err: unknown): void => this.log(`${COMPONENT}: ${errorText(err)}`);
    const indexers = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.sets = createSharedInformer(this.client, STATEFUL_SETS, undefined, { indexers, onError });
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers, onError });
    this.revisions = createSharedInformer(this.client, CONTROLLER_REVISIONS, undefined, { indexers, onError });
    this.claims = createSharedInformer(this.client, CLAIMS, undefined, { indexers, onError });
    this.podControl = new ApiStatefulPodControl(this.client, this.claims.store, eventRecorder(this.client, COMPONENT, this.log));
    this.sets.addEventHandler({
      onAdd: (set) => this.enqueue(set),
      onUpdate: (_old, set) => this.enqueue(set),
      onDelete: (set) => this.enqueue(set),
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (old, pod) => {
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
        if (controllerRefOf(old)?.uid !== controllerRefOf(pod)?.uid) this.podChanged(old);
        this.podChanged(pod);
      },
      onDelete: (pod) => this.podChanged(pod),
    });
  }

  private informers(): SharedInformer[] {
    return [this.sets, this.pods, this.revisions, this.claims];
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

  private enqueue(set: KubeObject): void {
    this.queue.add(objectKey(set));
  }

  /** A pod wakes its set, or, as an orphan, every set that could adopt it. */
  private podChanged(pod: KubeObject): void {
    const ref = controllerRefOf(pod);
    if (ref !== undefined) {
      if (ref.kind !== 'StatefulSet') return;
      const set = this.sets.store.get(pod.metadata.namespace, ref.name);
      if (set?.metadata.uid === ref.uid) this.enqueue(set);
      return;
    }
    for (const set of this.sets.store.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      if (isMemberOf(set, pod) && selectorOf(set)?.matches(pod.metadata.labels) === true) this.enqueue(set);
    }
  }

  /** sync: claim, update, write status, trim history. */
  async sync(key: string): Promise<ItemResult | undefined> {
    const set = this.sets.store.getByKey(key);
    if (set === undefined || isBeingRestored(set)) return undefined;
    const selector = selectorOf(set);
    if (selector === undefined) return undefined;
    const namespace = set.metadata.namespace ?? '';
    const owned = await claimObjects(this.revisions.store.byIndex(NAMESPACE_INDEX, namespace), {
      client: this.client,
      dependents: CONTROLLER_REVISIONS,
      ownerResource: STATEFUL_SETS,
      owner: set,
      matches: (rev) => selector.matches(rev.metadata.labels),
    });
    const pods = await claimObjects(this.pods.store.byIndex(NAMESPACE_INDEX, namespace), {
      client: this.client,
      dependents: PODS,
      ownerResource: STATEFUL_SETS,
      owner: set,
      matches: (pod) => isMemberOf(set, pod) && selector.matches(pod.metadata.labels),
    });
    const revisions = await statefulSetRevisions(this.client, set, owned);
    let status: SetStatus | undefined;
    let failure: unknown;
    try {
      status = await updateStatefulSet(set, revisions, pods, this.podControl, this.now());
    } catch (err) {
      failure = err;
    }
    if (status !== undefined) {
      completeRollingUpdate(set, status);
      if (statusDiffers(set, status)) await this.writeStatus(set, status);
      const inUse = new Set([status.currentRevision, status.updateRevision, ...podRevisionNames(pods)]);
      const limit = numberOr(specOf(set).revisionHistoryLimit, 10);
      await truncateHistory(this.client, revisions.all, (r) => inUse.has(r.metadata.name ?? ''), limit);
    }
    if (failure !== undefined) throw failure;
    const minReadySeconds = numberOr(specOf(set).minReadySeconds, 0);
    if (minReadySeconds > 0 && status !== undefined && status.availableReplicas !== replicaCount(set)) {
      return { requeueAfterMs: minReadySeconds * 1000 };
    }
    return undefined;
  }

  /** updateStatefulSetStatus: retried once against a fresh read on a conflict. */
  private async writeStatus(set: KubeObject, status: SetStatus): Promise<void> {
    try {
      await this.client.update(STATEFUL_SETS, set.metadata.namespace, { ...set, status: renderStatus(set, status) }, 'status');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
      const fresh = await this.client.get(STATEFUL_SETS, set.metadata.namespace, set.metadata.name ?? '');
      await this.client.update(STATEFUL_SETS, set.metadata.namespace, { ...fresh, status: renderStatus(fresh, status) }, 'status');
    }
  }
}
