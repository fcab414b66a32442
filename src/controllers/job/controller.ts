import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type LabelSelector, NOTHING_SELECTOR } from '../../selectors/label-selector.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { slowStartBatch } from '../replicaset/controller.js';
import { claimObjects, controllerRefOf } from '../workloads/controller-ref.js';
import { type EventRecorder, eventRecorder } from '../workloads/events.js';
import { ControllerExpectations } from '../workloads/expectations.js';
import { PodControl } from '../workloads/pod-control.js';
import { isBeingRestored } from '../workloads/restoring.js';
import { type BackoffSettings, PodFailureBackoff } from './backoff.js';
import { isJobFinished } from './conditions.js';
import { hasTrackingFinalizer, podForJob, specOf, TRACKING_FINALIZER } from './job-pods.js';
import { type JobSyncContext, syncJob } from './sync-job.js';

export const JOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const COMPONENT = 'job-controller';
/** Queue keys of pods whose tracking finalizer may have to go without a Job to sync (syncOrphanPod). */
const ORPHAN_PREFIX = 'orphan-pod:';
/** spec.managedBy value (or its absence) that this controller manages (R12.101). */
const MANAGED_BY = 'kubernetes.io/job-controller';

export interface JobControllerOptions {
  readonly client: ApiClient;
  /** --concurrent-job-syncs (default 5). */
  readonly workers?: number;
  readonly now?: () => number;
  /** The pod failure back-off (default 10 s doubling to 10 minutes); tests shorten it. */
  readonly backoff?: BackoffSettings;
  readonly log?: (message: string) => void;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function selectorOf(job: KubeObject): LabelSelector {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(specOf(job).selector));
  } catch {
    return NOTHING_SELECTOR;
  }
}

/**
 * The Job controller (kube name `job`): runs a Job's pods to completion, counting finished pods through the
 * tracking finalizer, and sets the Job's terminal condition (R12.100–R12.114).
 */
export class JobController {
  readonly expectations: ControllerExpectations;
  private readonly client: ApiClient;
  private readonly jobs: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly workers: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly record: EventRecorder;
  private readonly podControl: PodControl;
  private readonly backoff: PodFailureBackoff;
  /** Uids of pods whose finalizer this controller removed, until the cache shows it gone (finalizer expectations). */
  private readonly released = new Set<string>();
  /**
   * The last status this controller wrote per Job, and the resource versions it replaced: a cache still showing one
   * of those would have the next sync count pods twice or recreate finished indexes.
   */
  private readonly written = new Map<string, { readonly stale: Set<string>; job: KubeObject }>();
  private running: Promise<void>[] = [];

  constructor(options: JobControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.expectations = new ControllerExpectations(this.now);
    this.backoff = new PodFailureBackoff(options.backoff);
    this.record = eventRecorder(this.client, COMPONENT, this.log);
    this.podControl = new PodControl(this.client, this.record);
    const onError = (err: unknown): void => this.log(`${COMPONENT}: ${errorText(err)}`);
    const indexers = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.jobs = createSharedInformer(this.client, JOBS, undefined, { indexers, onError });
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers, onError });
    this.jobs.addEventHandler({
      onAdd: (job) => this.queue.add(objectKey(job)),
      onUpdate: (_old, job) => this.queue.add(objectKey(job)),
      onDelete: (job) => this.jobDeleted(job),
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(undefined, pod),
      onUpdate: (old, pod) => this.podChanged(old, pod),
      onDelete: (pod) => this.podDeleted(pod),
    });
  }

  async start(): Promise<void> {
    this.jobs.start();
    this.pods.start();
    await Promise.all([this.jobs.whenSynced(), this.pods.whenSynced()]);
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
    await Promise.all([this.jobs.stop(), this.pods.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  /** The Job a pod's controller reference names, if it is in the cache and still the same object. */
  private jobOf(pod: KubeObject): KubeObject | undefined {
    const ref = controllerRefOf(pod);
    if (ref === undefined || ref.kind !== 'Job') return undefined;
    const job = this.jobs.store.get(pod.metadata.namespace, ref.name);
    return job?.metadata.uid === ref.uid ? job : undefined;
  }

  private podChanged(old: KubeObject | undefined, pod: KubeObject): void {
    if (old !== undefined && old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (!hasTrackingFinalizer(pod)) this.released.delete(pod.metadata.uid ?? '');
    const job = this.jobOf(pod);
    if (job === undefined) {
      if (hasTrackingFinalizer(pod)) this.queue.add(ORPHAN_PREFIX + objectKey(pod));
      if (controllerRefOf(pod) === undefined) this.wakeMatchingJobs(pod);
      return;
    }
    const key = objectKey(job);
    if (old === undefined && pod.metadata.deletionTimestamp === undefined) this.expectations.creationObserved(key);
    if (pod.metadata.deletionTimestamp !== undefined && old?.metadata.deletionTimestamp === undefined) {
      this.expectations.deletionObserved(key, objectKey(pod));
    }
    if (isJobFinished(job) && hasTrackingFinalizer(pod)) this.queue.add(ORPHAN_PREFIX + objectKey(pod));
    this.queue.add(key);
  }

  /** Orphans wake the Jobs that could adopt them. */
  private wakeMatchingJobs(pod: KubeObject): void {
    for (const job of this.jobs.store.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      if (selectorOf(job).matches(pod.metadata.labels)) this.queue.add(objectKey(job));
    }
  }

  private podDeleted(pod: KubeObject): void {
    this.released.delete(pod.metadata.uid ?? '');
    const job = this.jobOf(pod);
    if (job === undefined) return;
    this.expectations.deletionObserved(objectKey(job), objectKey(pod));
    this.queue.add(objectKey(job));
  }

  /** A gone Job's pods lose their finalizers (R12.108). */
  private jobDeleted(job: KubeObject): void {
    const key = objectKey(job);
    this.expectations.delete(key);
    this.written.delete(key);
    this.backoff.forget(key);
    for (const pod of this.pods.store.byIndex(NAMESPACE_INDEX, job.metadata.namespace ?? '')) {
      if (controllerRefOf(pod)?.uid === job.metadata.uid && hasTrackingFinalizer(pod)) this.queue.add(ORPHAN_PREFIX + objectKey(pod));
    }
  }

  async sync(key: string): Promise<ItemResult | undefined> {
    if (key.startsWith(ORPHAN_PREFIX)) {
      await this.syncOrphanPod(key.slice(ORPHAN_PREFIX.length));
      return undefined;
    }
    const job = this.freshest(key);
    if (job === undefined || isBeingRestored(job)) return undefined;
    const managedBy = specOf(job).managedBy;
    if (managedBy !== undefined && managedBy !== MANAGED_BY) return undefined;
    if (isJobFinished(job)) return undefined;
    const selector = selectorOf(job);
    const pods = await claimObjects(this.pods.store.byIndex(NAMESPACE_INDEX, job.metadata.namespace ?? ''), {
      client: this.client,
      dependents: PODS,
      ownerResource: JOBS,
      owner: job,
      matches: (pod) => selector.matches(pod.metadata.labels),
      finalizer: TRACKING_FINALIZER,
    });
    return syncJob(this.context(key), job, pods);
  }

  /** The cached Job, or what this controller last wrote when the cache has not caught up with it yet. */
  private freshest(key: string): KubeObject | undefined {
    const cached = this.jobs.store.getByKey(key);
    const mine = this.written.get(key);
    if (cached === undefined || mine === undefined) {
      this.written.delete(key);
      return cached;
    }
    if (cached.metadata.uid === mine.job.metadata.uid && mine.stale.has(cached.metadata.resourceVersion ?? '')) return mine.job;
    this.written.delete(key);
    return cached;
  }

  private async writeStatus(key: string, job: KubeObject, status: Record<string, unknown>): Promise<KubeObject> {
    const written = await this.client.update(JOBS, job.metadata.namespace, { ...job, status }, 'status');
    const previous = this.written.get(key);
    const stale =
      previous !== undefined && previous.job.metadata.resourceVersion === job.metadata.resourceVersion ? previous.stale : new Set<string>();
    stale.add(job.metadata.resourceVersion ?? '');
    this.written.set(key, { stale, job: written });
    return written;
  }

  /** A pod whose Job is gone, finished or no longer its controller keeps no tracking finalizer (syncOrphanPod). */
  private async syncOrphanPod(podKey: string): Promise<void> {
    const pod = this.pods.store.getByKey(podKey);
    if (pod === undefined || !hasTrackingFinalizer(pod)) return;
    const job = this.jobOf(pod);
    if (job !== undefined && !isJobFinished(job)) return;
    await this.removeFinalizer(pod);
  }

  private context(key: string): JobSyncContext {
    return {
      key,
      now: this.now(),
      expectations: this.expectations,
      backoff: this.backoff,
      released: this.released,
      record: this.record,
      createPod: (job, index, failureCount) => this.createPod(job, index, failureCount),
      deletePod: (job, pod) => this.deletePod(key, job, pod),
      removeFinalizer: (pod) => this.removeFinalizer(pod),
      writeStatus: (job, status) => this.writeStatus(key, job, status),
      createBatch: (count, fn) => slowStartBatch(count, fn),
    };
  }

  private createPod(job: KubeObject, index: number | undefined, failureCount: number | undefined): Promise<void> {
    return this.podControl.create(job, podForJob(job, index, failureCount));
  }

  private deletePod(key: string, job: KubeObject, pod: KubeObject): Promise<void> {
    return this.podControl.delete(job, pod.metadata.namespace, pod.metadata.name ?? '', () =>
      this.expectations.deletionObserved(key, objectKey(pod)),
    );
  }

  /** A strategic-merge patch removing only the tracking finalizer, with the uid as precondition. */
  private async removeFinalizer(pod: KubeObject): Promise<void> {
    try {
      await this.client.patch(PODS, pod.metadata.namespace, pod.metadata.name ?? '', 'strategic', {
        metadata: { uid: pod.metadata.uid, '$deleteFromPrimitiveList/finalizers': [TRACKING_FINALIZER] },
      });
    } catch (err) {
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
    this.released.add(pod.metadata.uid ?? '');
  }
}
