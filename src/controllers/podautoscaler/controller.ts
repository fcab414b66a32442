import { StatusError } from '../../api/errors.js';
import { isObject, parseApiVersion, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { eventRecorder, type EventRecorder } from '../workloads/events.js';
import { reconcileHpa, type TargetScale } from './reconcile.js';

const HPAS: ResourceRef = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
/** --horizontal-pod-autoscaler-sync-period. */
const DEFAULT_SYNC_PERIOD_MS = 15_000;

export interface HpaControllerOptions {
  readonly client: ApiClient;
  /** How often every HPA is reconciled again (Kubernetes: 15 s). */
  readonly syncPeriodMs?: number;
  readonly clock?: () => Date;
  readonly log?: (message: string) => void;
}

const key = (obj: KubeObject): string => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

/**
 * kube-controller-manager's horizontalpodautoscaling controller, as it behaves with no metrics API: it reads the
 * target's scale, keeps the replica count within the HPA's bounds and reports in status, conditions and events that
 * no metric can be read. The target is read and scaled through its /scale subresource (autoscaling/v1 Scale), so any
 * kind with one can be autoscaled; a target discovery does not know, or without a scale, reports FailedGetScale.
 */
export class HorizontalPodAutoscalerController {
  private readonly client: ApiClient;
  private readonly hpas: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly syncPeriodMs: number;
  private readonly clock: () => Date;
  private readonly log: (message: string) => void;
  private readonly record: EventRecorder;
  private worker: Promise<void> | undefined;

  constructor(options: HpaControllerOptions) {
    this.client = options.client;
    this.syncPeriodMs = options.syncPeriodMs ?? DEFAULT_SYNC_PERIOD_MS;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? (() => {});
    this.record = eventRecorder(this.client, 'horizontal-pod-autoscaler', this.log);
    this.hpas = createSharedInformer(this.client, HPAS, undefined);
    this.hpas.addEventHandler({
      onAdd: (hpa) => this.queue.add(key(hpa)),
      onUpdate: (old, hpa) => {
        // The controller's own status writes come back as updates; only spec or metadata changes ask for a pass.
        if (JSON.stringify(old.spec) !== JSON.stringify(hpa.spec)) this.queue.add(key(hpa));
      },
    });
  }

  async start(): Promise<void> {
    this.hpas.start();
    await this.hpas.whenSynced();
    this.worker = this.run();
  }

  private async run(): Promise<void> {
    for (;;) {
      const item = await this.queue.get();
      if (item === undefined) return;
      try {
        const requeue = await this.sync(item);
        this.queue.forget(item);
        if (requeue) this.queue.addAfter(item, this.syncPeriodMs);
      } catch (err) {
        this.log(`horizontal-pod-autoscaler: ${item}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addRateLimited(item);
      } finally {
        this.queue.done(item);
      }
    }
  }

  /** One reconciliation; true while the HPA exists, so it is looked at again after the sync period. */
  private async sync(item: string): Promise<boolean> {
    const [namespace = '', name = ''] = item.split('/');
    const hpa = this.hpas.store.get(namespace, name);
    if (hpa === undefined || hpa.metadata.deletionTimestamp !== undefined) return false;
    const target = await this.readTarget(hpa);
    const now = this.clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const outcome = reconcileHpa(hpa, 'scale' in target ? target.scale : target, now);
    let status = outcome.status;
    if (outcome.scaleTo !== undefined && 'scale' in target) {
      try {
        const scale = target.object;
        await this.client.update(
          target.ref,
          namespace,
          { ...scale, spec: { ...(isObject(scale.spec) ? scale.spec : {}), replicas: outcome.scaleTo } },
          'scale',
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.record(
          hpa,
          'Warning',
          'FailedRescale',
          `New size: ${outcome.scaleTo}; reason: failed to update the target's scale; error: ${message}`,
        );
        status = { ...outcome.status, lastScaleTime: isObject(hpa.status) ? hpa.status.lastScaleTime : undefined };
      }
    }
    for (const event of outcome.events) this.record(hpa, event.type, event.reason, event.message);
    if (JSON.stringify(status) !== JSON.stringify(hpa.status)) {
      try {
        await this.client.update(HPAS, namespace, { ...hpa, status }, 'status');
      } catch (err) {
        // Changed or deleted meanwhile: the informer's next event or the next period brings another pass.
        if (!(err instanceof StatusError && (err.code === 409 || err.code === 404))) throw err;
      }
    }
    return true;
  }

  /**
   * The target's Scale, read through its /scale subresource as the scale client does, for any kind discovery maps
   * the reference to (built-in workloads and custom resources with a scale subresource alike).
   */
  private async readTarget(hpa: KubeObject): Promise<{ scale: TargetScale; ref: ResourceRef; object: KubeObject } | { error: string }> {
    const spec = isObject(hpa.spec) ? hpa.spec : {};
    const targetRef = isObject(spec.scaleTargetRef) ? spec.scaleTargetRef : {};
    const { group, version } = parseApiVersion(typeof targetRef.apiVersion === 'string' ? targetRef.apiVersion : '');
    const kind = String(targetRef.kind ?? '');
    const name = String(targetRef.name ?? '');
    const served = (await this.client.discover()).find(
      (info) => info.group === group && info.kind === kind && (version === '' || info.version === version),
    );
    if (served === undefined) return { error: `no matches for kind "${kind}" in group "${group}"` };
    const ref: ResourceRef = { group, version: served.version, resource: served.plural };
    try {
      const object = await this.client.get(ref, hpa.metadata.namespace, name, 'scale');
      const scaleSpec = isObject(object.spec) ? object.spec : {};
      const scaleStatus = isObject(object.status) ? object.status : {};
      return {
        ref,
        object,
        scale: {
          specReplicas: typeof scaleSpec.replicas === 'number' ? scaleSpec.replicas : 0,
          statusReplicas: typeof scaleStatus.replicas === 'number' ? scaleStatus.replicas : 0,
          selector: typeof scaleStatus.selector === 'string' ? scaleStatus.selector : '',
        },
      };
    } catch (err) {
      if (err instanceof StatusError) return { error: err.message };
      throw err;
    }
  }

  async stop(): Promise<void> {
    await this.hpas.stop();
    this.queue.shutDown();
    await this.worker;
  }
}
