import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { objectKey, objectKeyOf } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { managedSelector } from '../endpoint-util/pods.js';
import { ServicePodInformers } from '../endpoint-util/service-informers.js';
import { TriggerTimeTracker } from '../endpoint-util/trigger-time.js';
import { eventRecorder, type EventRecorder } from '../workloads/events.js';
import { isNamespaceTerminating } from '../workloads/pod-control.js';
import { reconcileSlices, type SliceWrites } from './reconciler.js';
import { CONTROLLER_NAME, MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from './slices.js';
import { EndpointSliceTracker } from './tracker.js';

const SLICES: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const NODES: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };
/** Managed slices filed by "namespace/service". */
const SERVICE_INDEX = 'service';
/** --max-endpoints-per-slice's default. */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const managed = (slice: KubeObject): boolean => slice.metadata.labels?.[MANAGED_BY_LABEL] === CONTROLLER_NAME;
const serviceKeyOf = (slice: KubeObject): string | undefined => {
  const name = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  return name === undefined || name === '' ? undefined : objectKeyOf(slice.metadata.namespace, name);
};

/** The cache lags behind the controller's own writes: retried with backoff, and not worth a log line (V4 upstream). */
class StaleInformerCacheError extends Error {}

/** utilerrors.NewAggregate's message. */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`;
}

export interface EndpointSliceControllerOptions {
  readonly client: ApiClient;
  /** --max-endpoints-per-slice (1–1000, default 100). */
  readonly maxEndpointsPerSlice?: number;
  /** --concurrent-service-endpoint-syncs (default 5). */
  readonly workers?: number;
  readonly log?: (message: string) => void;
}

/**
 * The EndpointSlice controller (pkg/controller/endpointslice): for every Service with a selector, slices of the
 * pods it selects, per address type, owned by the Service (R12.130–R12.134). Pod changes are coalesced per Service
 * by the work queue (endpointUpdatesBatchPeriod 0).
 */
export class EndpointSliceController {
  private readonly client: ApiClient;
  private readonly informers: ServicePodInformers;
  private readonly slices: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly tracker = new EndpointSliceTracker();
  private readonly triggerTimes = new TriggerTimeTracker();
  private readonly record: EventRecorder;
  private readonly max: number;
  private readonly workers: number;
  private readonly log: (message: string) => void;
  private running: Promise<void>[] = [];

  constructor(options: EndpointSliceControllerOptions) {
    this.client = options.client;
    this.max = options.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE;
    this.workers = options.workers ?? 5;
    this.log = options.log ?? (() => {});
    this.record = eventRecorder(this.client, 'endpoint-slice-controller', this.log);
    const onError = (err: unknown): void => this.log(`endpointslice-controller: ${errorText(err)}`);
    const enqueue = (key: string): void => this.queue.add(key);
    this.informers = new ServicePodInformers(this.client, enqueue, onError);
    this.slices = createSharedInformer(this.client, SLICES, undefined, {
      indexers: { [SERVICE_INDEX]: (slice) => (managed(slice) ? [serviceKeyOf(slice) ?? ''] : []) },
      onError,
    });
    this.nodes = createSharedInformer(this.client, NODES, undefined, { onError });
    this.slices.addEventHandler({
      onAdd: (slice) => {
        if (managed(slice) && this.tracker.shouldSync(slice)) this.enqueueFor(slice);
      },
      onUpdate: (old, slice) => {
        if (managed(old) !== managed(slice) || (managed(slice) && this.tracker.shouldSync(slice))) {
          this.enqueueFor(slice);
          if (serviceKeyOf(old) !== serviceKeyOf(slice)) this.enqueueFor(old);
        }
      },
      onDelete: (slice) => {
        if (managed(slice) && this.tracker.has(slice) && this.tracker.handleDeletion(slice)) this.enqueueFor(slice);
      },
    });
  }

  private enqueueFor(slice: KubeObject): void {
    const key = serviceKeyOf(slice);
    if (key !== undefined) this.queue.add(key);
  }

  async start(): Promise<void> {
    this.informers.start();
    this.slices.start();
    this.nodes.start();
    await Promise.all([this.informers.whenSynced(), this.slices.whenSynced(), this.nodes.whenSynced()]);
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => {
            if (!(err instanceof StaleInformerCacheError)) this.log(`endpointslice-controller: syncing ${key}: ${errorText(err)}`);
          },
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.informers.stop(), this.slices.stop(), this.nodes.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  /** syncService. */
  async sync(key: string): Promise<void> {
    const service = this.informers.services.store.getByKey(key);
    if (service === undefined) {
      this.triggerTimes.deleteService(key);
      this.tracker.deleteService(key);
      return;
    }
    const selector = managedSelector(service);
    if (selector === undefined) return;
    const pods = this.informers.podsFor(service, selector);
    const slices = this.slices.store.byIndex(SERVICE_INDEX, key).filter((s) => s.metadata.deletionTimestamp === undefined);
    if (this.tracker.staleSlices(key, slices)) throw new StaleInformerCacheError('EndpointSlice informer cache is out of date');
    const triggerTime = this.triggerTimes.compute(key, service, pods);
    const plan = reconcileSlices({
      service,
      pods,
      slices,
      maxEndpointsPerSlice: this.max,
      node: (name) => this.nodes.store.get(undefined, name),
      triggerTime,
    });
    const errors = [...plan.errors];
    for (const writes of plan.writes) {
      const failure = await this.apply(service, writes);
      if (failure !== undefined) errors.push(failure);
    }
    for (const slice of plan.unsupported) {
      const failure = await this.deleteSlice(slice);
      if (failure !== undefined) {
        errors.push(`error deleting ${slice.metadata.name} EndpointSlice for Service ${key}: ${failure}`);
      }
    }
    if (errors.length === 0) return;
    const message = aggregate(errors);
    this.record(service, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${key}: ${message}`);
    throw new Error(message);
  }

  /** finalize's writing half: creates (not while the Service is being deleted), updates, deletes; the first failure ends it. */
  private async apply(service: KubeObject, writes: SliceWrites): Promise<string | undefined> {
    const key = objectKey(service);
    if (service.metadata.deletionTimestamp === undefined) {
      for (const slice of writes.create) {
        try {
          this.tracker.update(await this.client.create(SLICES, service.metadata.namespace, slice));
        } catch (err) {
          if (isNamespaceTerminating(err)) return undefined;
          return `failed to create EndpointSlice for Service ${key}: ${errorText(err)}`;
        }
      }
    }
    for (const slice of writes.update) {
      try {
        this.tracker.update(await this.client.update(SLICES, service.metadata.namespace, slice));
      } catch (err) {
        return `failed to update ${slice.metadata.name} EndpointSlice for Service ${key}: ${errorText(err)}`;
      }
    }
    for (const slice of writes.delete) {
      const failure = await this.deleteSlice(slice);
      if (failure !== undefined) return `failed to delete ${slice.metadata.name} EndpointSlice for Service ${key}: ${failure}`;
    }
    return undefined;
  }

  /** deleteEndpointSlice: a slice already gone is fine. */
  private async deleteSlice(slice: KubeObject): Promise<string | undefined> {
    try {
      await this.client.delete(SLICES, slice.metadata.namespace, slice.metadata.name ?? '');
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      return errorText(err);
    }
    this.tracker.expectDeletion(slice);
    return undefined;
  }
}
