import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { objectKey, splitObjectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { HEADLESS_LABEL, isServiceIPSet, LAST_CHANGE_TRIGGER_TIME, managedSelector } from '../endpoint-util/pods.js';
import { ServicePodInformers } from '../endpoint-util/service-informers.js';
import { formatRfc3339Nano, TriggerTimeTracker } from '../endpoint-util/trigger-time.js';
import { type EventRecorder, eventRecorder } from '../workloads/events.js';
import { isNamespaceTerminating } from '../workloads/pod-control.js';
import {
  capacityAnnotationCorrect,
  computeSubsets,
  OVER_CAPACITY_ANNOTATION,
  subsetsEqualIgnoringResourceVersion,
  truncateSubsets,
} from './subsets.js';

const ENDPOINTS: ResourceRef = { group: '', version: 'v1', resource: 'endpoints' };
/** Endpoints used as leader-election locks (by old components) are not the controller's. */
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function sameLabels(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b ?? {}).length && ea.every(([k, v]) => b?.[k] === v);
}

export interface EndpointsControllerOptions {
  readonly client: ApiClient;
  /** --concurrent-endpoint-syncs (default 5). */
  readonly workers?: number;
  readonly log?: (message: string) => void;
}

/**
 * The Endpoints controller (pkg/controller/endpoint): an Endpoints object named after each Service with a selector,
 * listing the selected pods' addresses (R12.125–R12.129). It owns nothing by reference: it deletes the Endpoints
 * itself when the Service goes, and at start-up the leftovers of Services deleted meanwhile.
 */
export class EndpointsController {
  private readonly client: ApiClient;
  private readonly informers: ServicePodInformers;
  private readonly endpoints: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly triggerTimes = new TriggerTimeTracker();
  private readonly record: EventRecorder;
  private readonly workers: number;
  private readonly log: (message: string) => void;
  private running: Promise<void>[] = [];

  constructor(options: EndpointsControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.log = options.log ?? (() => {});
    this.record = eventRecorder(this.client, 'endpoint-controller', this.log);
    const onError = (err: unknown): void => this.log(`endpoint-controller: ${errorText(err)}`);
    this.informers = new ServicePodInformers(this.client, (key) => this.queue.add(key), onError);
    this.endpoints = createSharedInformer(this.client, ENDPOINTS, undefined, { onError });
    // Someone deleted an Endpoints object: its Service, if any, gets it back.
    this.endpoints.addEventHandler({ onDelete: (endpoints) => this.queue.add(objectKey(endpoints)) });
  }

  async start(): Promise<void> {
    this.informers.start();
    this.endpoints.start();
    await Promise.all([this.informers.whenSynced(), this.endpoints.whenSynced()]);
    this.checkLeftoverEndpoints();
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => this.log(`endpoint-controller: syncing ${key}: ${errorText(err)}`),
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.informers.stop(), this.endpoints.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  /** checkLeftoverEndpoints: every Endpoints object is looked at once, so those of deleted Services go. */
  private checkLeftoverEndpoints(): void {
    for (const endpoints of this.endpoints.store.list()) {
      if (endpoints.metadata.annotations?.[LEADER_ANNOTATION] !== undefined) continue;
      this.queue.add(objectKey(endpoints));
    }
  }

  /** syncService. */
  async sync(key: string): Promise<void> {
    const service = this.informers.services.store.getByKey(key);
    if (service === undefined) {
      const { namespace, name } = splitObjectKey(key);
      try {
        await this.client.delete(ENDPOINTS, namespace, name);
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
      this.triggerTimes.deleteService(key);
      return;
    }
    const selector = managedSelector(service);
    if (selector === undefined) return;
    const pods = this.informers.podsFor(service, selector);
    const triggerTime = this.triggerTimes.compute(key, service, pods);
    const subsets = computeSubsets(service, pods);

    const current = this.endpoints.store.getByKey(key);
    const serviceLabels = service.metadata.labels ?? {};
    if (current !== undefined) {
      const { [HEADLESS_LABEL]: _headless, ...currentLabels } = current.metadata.labels ?? {};
      if (
        subsetsEqualIgnoringResourceVersion(current.subsets, subsets) &&
        sameLabels(currentLabels, serviceLabels) &&
        capacityAnnotationCorrect(current.metadata.annotations, Array.isArray(current.subsets) ? current.subsets : [])
      ) {
        return;
      }
    }
    const annotations = { ...(current?.metadata.annotations ?? {}) };
    if (triggerTime > 0) annotations[LAST_CHANGE_TRIGGER_TIME] = formatRfc3339Nano(triggerTime);
    else delete annotations[LAST_CHANGE_TRIGGER_TIME];
    const truncated = truncateSubsets(subsets);
    if (truncated !== undefined) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
    else delete annotations[OVER_CAPACITY_ANNOTATION];
    const labels: Record<string, string> = { ...serviceLabels };
    if (isServiceIPSet(service)) delete labels[HEADLESS_LABEL];
    else labels[HEADLESS_LABEL] = '';
    const desired: KubeObject = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { ...(current?.metadata ?? { name: service.metadata.name, namespace: service.metadata.namespace }), labels, annotations },
    };
    // Go omits an empty subsets list: an Endpoints object without pods has no subsets (R12.129).
    const written = truncated ?? subsets;
    if (written.length > 0) desired.subsets = written;
    try {
      if (current === undefined) await this.client.create(ENDPOINTS, service.metadata.namespace, desired);
      else await this.client.update(ENDPOINTS, service.metadata.namespace, desired);
    } catch (err) {
      if (current === undefined && isNamespaceTerminating(err)) return;
      const namespacedName = `${service.metadata.namespace}/${service.metadata.name}`;
      if (current === undefined) {
        this.record(
          desired,
          'Warning',
          'FailedToCreateEndpoint',
          `Failed to create endpoint for service ${namespacedName}: ${errorText(err)}`,
        );
      } else {
        this.record(desired, 'Warning', 'FailedToUpdateEndpoint', `Failed to update endpoint ${namespacedName}: ${errorText(err)}`);
      }
      throw err;
    }
  }
}
