import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey, splitObjectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';

const JOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs' };
const COMPONENT = 'ttl-after-finished-controller';

export interface TtlAfterFinishedOptions {
  readonly client: ApiClient;
  /** --concurrent-ttl-after-finished-syncs (default 5). */
  readonly workers?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

/** When a finished Job with a TTL expires (ms), or undefined if it has no TTL, is unfinished or is being deleted. */
export function jobExpiryMs(job: KubeObject): number | undefined {
  const spec = isObject(job.spec) ? job.spec : {};
  const ttl = spec.ttlSecondsAfterFinished;
  if (typeof ttl !== 'number' || job.metadata.deletionTimestamp !== undefined) return undefined;
  const status = isObject(job.status) ? job.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const finished = conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (finished === undefined) return undefined;
  const at = Date.parse(String(finished.lastTransitionTime ?? ''));
  return Number.isNaN(at) ? undefined : at + ttl * 1000;
}

/**
 * The TTL-after-finished controller (kube name `ttl-after-finished`): deletes a finished Job, in the foreground,
 * `ttlSecondsAfterFinished` after its terminal condition, re-checking a live read first (R12.115, R12.116).
 */
export class TtlAfterFinishedController {
  private readonly client: ApiClient;
  private readonly jobs: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly workers: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private running: Promise<void>[] = [];

  constructor(options: TtlAfterFinishedOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.jobs = createSharedInformer(this.client, JOBS, undefined, {
      onError: (err) => this.log(`${COMPONENT}: ${String(err)}`),
    });
    const enqueue = (job: KubeObject): void => {
      if (jobExpiryMs(job) !== undefined) this.queue.add(objectKey(job));
    };
    this.jobs.addEventHandler({ onAdd: enqueue, onUpdate: (_old, job) => enqueue(job) });
  }

  async start(): Promise<void> {
    this.jobs.start();
    await this.jobs.whenSynced();
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => this.log(`${COMPONENT}: processing ${key}: ${String(err)}`),
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await this.jobs.stop();
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  /** processJob: wait for the expiry, then re-read the Job live and delete it if it still expired. */
  async sync(key: string): Promise<ItemResult | undefined> {
    const cached = this.jobs.store.getByKey(key);
    const cachedExpiry = cached === undefined ? undefined : jobExpiryMs(cached);
    if (cachedExpiry === undefined) return undefined;
    if (cachedExpiry > this.now()) return { requeueAfterMs: cachedExpiry - this.now() };
    const { namespace, name } = splitObjectKey(key);
    let fresh: KubeObject;
    try {
      fresh = await this.client.get(JOBS, namespace, name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
    const expiry = jobExpiryMs(fresh);
    if (expiry === undefined) return undefined;
    if (expiry > this.now()) return { requeueAfterMs: expiry - this.now() };
    try {
      // Foreground keeps the Job visible until its pods are gone; the uid guards against a recreated namesake.
      await this.client.delete(JOBS, namespace, name, {
        propagationPolicy: 'Foreground',
        preconditions: { uid: fresh.metadata.uid },
      });
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return undefined;
      throw err;
    }
    return undefined;
  }
}
