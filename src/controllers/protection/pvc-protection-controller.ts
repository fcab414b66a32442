import type { KubeObject } from '../../api/types.js';
import { objectKey, splitObjectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { PVC_PROTECTION_FINALIZER } from '../../protection/volume-finalizers.js';
import { maybeYield } from '../../util/yield-to-event-loop.js';
import { createQueue, type Queue } from '../../workqueue/queue.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { isDeletionCandidate, needsFinalizer, putFinalizers } from './finalizers.js';
import { createProtectionMetrics, type ProtectionMetrics } from './metrics.js';
import { claimsToRecheck, POD_PVC_INDEX, podPVCIndexFunc, podUsesPVC } from './pvc-usage.js';

const PVCS: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

export interface PvcProtectionOptions {
  readonly client: ApiClient;
  /** R6.9: one worker by default. */
  readonly workers?: number;
  /** --pvc-protection-count-finished-pods (default true: Kubernetes' behaviour, debt D15). */
  readonly countFinishedPods?: boolean;
  readonly log?: (message: string) => void;
}

/**
 * The PVC protection controller (R6.1–R6.7, R6.9). PVC keys are moved from the work queue into per-namespace
 * batches, as Kubernetes does, so that one live LIST of a namespace's pods serves every claim of that namespace
 * whose cache check came out negative in the same batch.
 */
export class PvcProtectionController {
  readonly metrics: ProtectionMetrics = createProtectionMetrics('pvcprotection');
  private readonly client: ApiClient;
  private readonly options: PvcProtectionOptions;
  private readonly queue: RateLimitedQueue<string>;
  private readonly batches = new Map<string, string[]>();
  private readonly namespaces: Queue<string> = createQueue<string>();
  private readonly pvcs: SharedInformer;
  private readonly pods: SharedInformer;
  private running: Promise<void>[] = [];

  constructor(options: PvcProtectionOptions) {
    this.options = options;
    this.client = options.client;
    this.queue = createRateLimitedQueue<string>({ metrics: this.metrics.queue });
    this.pvcs = createSharedInformer(this.client, PVCS, undefined);
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers: { [POD_PVC_INDEX]: podPVCIndexFunc } });
    const pvcChanged = (pvc: KubeObject): void => {
      if (needsFinalizer(pvc, PVC_PROTECTION_FINALIZER) || isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER))
        this.queue.add(objectKey(pvc));
    };
    this.pvcs.addEventHandler({ onAdd: pvcChanged, onUpdate: (_old, pvc) => pvcChanged(pvc) });
    const podChanged = (pod: KubeObject, deleted: boolean): void => {
      for (const key of claimsToRecheck(pod, deleted)) this.queue.add(key);
    };
    this.pods.addEventHandler({
      onAdd: (pod) => podChanged(pod, false),
      onUpdate: (old, pod) => {
        podChanged(pod, false);
        // R6.6: a same-named pod with a new uid hides the old pod's deletion.
        if (old.metadata.uid !== pod.metadata.uid) podChanged(old, true);
      },
      onDelete: (pod) => podChanged(pod, true),
    });
  }

  async start(): Promise<void> {
    this.pvcs.start();
    this.pods.start();
    await Promise.all([this.pvcs.whenSynced(), this.pods.whenSynced()]);
    this.running.push(this.batchKeys());
    for (let i = 0; i < (this.options.workers ?? 1); i++) this.running.push(this.processNamespaces());
  }

  async stop(): Promise<void> {
    await Promise.all([this.pvcs.stop(), this.pods.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }

  /** Files each queued claim under its namespace's batch. */
  private async batchKeys(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) break;
      const namespace = splitObjectKey(key).namespace ?? '';
      const batch = this.batches.get(namespace);
      if (batch === undefined) {
        this.batches.set(namespace, [key]);
        this.namespaces.add(namespace);
      } else batch.push(key);
    }
    this.namespaces.shutDown();
  }

  private async processNamespaces(): Promise<void> {
    for (;;) {
      const namespace = await this.namespaces.get();
      if (namespace === undefined) return;
      const keys = this.batches.get(namespace) ?? [];
      this.batches.delete(namespace);
      this.namespaces.done(namespace);
      const livePods: { pods?: KubeObject[] } = {};
      for (const key of keys) {
        try {
          await this.processPVC(key, livePods);
          this.queue.forget(key);
        } catch (err) {
          this.options.log?.(`pvc protection controller: ${key}: ${err instanceof Error ? err.message : String(err)}`);
          this.queue.addRateLimited(key);
        } finally {
          this.queue.done(key);
        }
        await maybeYield();
      }
    }
  }

  private async processPVC(key: string, livePods: { pods?: KubeObject[] }): Promise<void> {
    const pvc = this.pvcs.store.getByKey(key);
    if (pvc === undefined) return;
    if (isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) {
      if (await this.isBeingUsed(pvc, livePods)) return;
      await putFinalizers(this.client, PVCS, pvc, 'remove', PVC_PROTECTION_FINALIZER);
      this.metrics.finalizersRemoved++;
      return;
    }
    if (needsFinalizer(pvc, PVC_PROTECTION_FINALIZER)) {
      await putFinalizers(this.client, PVCS, pvc, 'add', PVC_PROTECTION_FINALIZER);
      this.metrics.finalizersAdded++;
    }
  }

  /** R6.3, R6.4: the cache may only say "used"; "unused" must come from a live LIST of the namespace's pods. */
  private async isBeingUsed(pvc: KubeObject, livePods: { pods?: KubeObject[] }): Promise<boolean> {
    const countFinished = this.options.countFinishedPods ?? true;
    const cached = this.pods.store.byIndex(POD_PVC_INDEX, objectKey(pvc));
    if (cached.some((pod) => podUsesPVC(pod, pvc, countFinished))) {
      this.metrics.cacheHits++;
      return true;
    }
    if (livePods.pods === undefined) {
      this.metrics.liveLists++;
      livePods.pods = (await this.client.list(PODS, pvc.metadata.namespace)).items;
    }
    return livePods.pods.some((pod) => podUsesPVC(pod, pvc, countFinished));
  }
}
