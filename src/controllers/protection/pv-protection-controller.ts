import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { PV_PROTECTION_FINALIZER } from '../../protection/volume-finalizers.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { isDeletionCandidate, needsFinalizer, putFinalizers } from './finalizers.js';
import { createProtectionMetrics, type ProtectionMetrics } from './metrics.js';

const PVS: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumes' };

export interface PvProtectionOptions {
  readonly client: ApiClient;
  /** R6.9: one worker by default. */
  readonly workers?: number;
  readonly log?: (message: string) => void;
}

/**
 * The PV protection controller (R6.8): a deletion candidate keeps its finalizer while it is Bound to a claim;
 * otherwise the finalizer goes. Kubernetes decides from the informer alone, with no live check, and so does this.
 */
export class PvProtectionController {
  readonly metrics: ProtectionMetrics = createProtectionMetrics('pvprotection');
  private readonly client: ApiClient;
  private readonly options: PvProtectionOptions;
  private readonly queue: RateLimitedQueue<string>;
  private readonly pvs: SharedInformer;
  private running: Promise<void>[] = [];

  constructor(options: PvProtectionOptions) {
    this.options = options;
    this.client = options.client;
    this.queue = createRateLimitedQueue<string>({ metrics: this.metrics.queue });
    this.pvs = createSharedInformer(this.client, PVS, undefined);
    const changed = (pv: KubeObject): void => {
      if (needsFinalizer(pv, PV_PROTECTION_FINALIZER) || isDeletionCandidate(pv, PV_PROTECTION_FINALIZER)) this.queue.add(objectKey(pv));
    };
    this.pvs.addEventHandler({ onAdd: changed, onUpdate: (_old, pv) => changed(pv) });
  }

  async start(): Promise<void> {
    this.pvs.start();
    await this.pvs.whenSynced();
    for (let i = 0; i < (this.options.workers ?? 1); i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    await this.pvs.stop();
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }

  private worker(): Promise<void> {
    return runWorker(
      this.queue,
      (key) => this.processPV(key),
      (key, err) => this.options.log?.(`pv protection controller: ${key}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private async processPV(key: string): Promise<void> {
    const pv = this.pvs.store.getByKey(key);
    if (pv === undefined) return;
    if (isDeletionCandidate(pv, PV_PROTECTION_FINALIZER)) {
      const bound = isObject(pv.status) && pv.status.phase === 'Bound';
      if (bound) {
        this.metrics.cacheHits++;
        return;
      }
      await putFinalizers(this.client, PVS, pv, 'remove', PV_PROTECTION_FINALIZER);
      this.metrics.finalizersRemoved++;
      return;
    }
    if (needsFinalizer(pv, PV_PROTECTION_FINALIZER)) {
      await putFinalizers(this.client, PVS, pv, 'add', PV_PROTECTION_FINALIZER);
      this.metrics.finalizersAdded++;
    }
  }
}
