import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient } from '../../client/interface.js';
import { type Clock, realClock } from '../../workqueue/clock.js';
import { createQueueMetrics, type QueueMetrics } from '../../workqueue/metrics.js';
import { createDefaultControllerRateLimiter } from '../../workqueue/rate-limiter.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './deleter.js';

export interface NamespaceControllerOptions {
  readonly client: ApiClient;
  /** The server's own client: kube-apiserver, not the namespace controller, recreates system namespaces. */
  readonly systemClient?: ApiClient;
  /** --concurrent-namespace-syncs (Kubernetes default 10). */
  readonly workers?: number;
  /**
   * Longest wait before a namespace with remaining content is checked again. Kubernetes waits estimate/2 + 1 s
   * (8.5 s for finalizer-held content); one API server has no caches to let settle, so Cascade re-checks sooner.
   */
  readonly maxRecheckMs?: number;
  readonly clock?: Clock;
  readonly log?: (message: string) => void;
}

/** Namespaces that must always exist; `kube-node-lease` may be deleted and comes back (R3.13). */
const RECREATED_NAMESPACES = new Set(['kube-node-lease']);

/**
 * The namespace controller (namespace_controller.go): a namespace informer, a rate-limited queue and the
 * deleter. Terminating namespaces are queued at once — there is a single API server, so none of Kubernetes'
 * fixed 5 s wait for other servers' caches (R5.10) is needed.
 */
export class NamespaceController {
  readonly queue: RateLimitedQueue<string>;
  readonly metrics: QueueMetrics = createQueueMetrics('namespace');
  private readonly client: ApiClient;
  private readonly deleter: NamespacedResourcesDeleter;
  private readonly informer: SharedInformer;
  private readonly options: NamespaceControllerOptions;
  private running: Promise<void>[] = [];

  constructor(options: NamespaceControllerOptions) {
    this.options = options;
    this.client = options.client;
    const clock = options.clock ?? realClock;
    this.queue = createRateLimitedQueue<string>({
      clock,
      metrics: this.metrics,
      // R5.11: per-item 5 ms → 60 s; the overall bucket protects nothing in-process.
      rateLimiter: createDefaultControllerRateLimiter<string>({
        clock,
        maxDelayMs: 60_000,
        qps: Number.POSITIVE_INFINITY,
        burst: Number.MAX_SAFE_INTEGER,
      }),
    });
    this.deleter = new NamespacedResourcesDeleter(this.client);
    this.informer = createSharedInformer(this.client, { group: '', version: 'v1', resource: 'namespaces' }, undefined);
    const enqueue = (ns: KubeObject): void => {
      if (ns.metadata.deletionTimestamp !== undefined) this.queue.add(ns.metadata.name ?? '');
    };
    this.informer.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, ns) => enqueue(ns),
      onDelete: (ns) => {
        if (RECREATED_NAMESPACES.has(ns.metadata.name ?? '')) this.recreate(ns.metadata.name ?? '');
      },
    });
  }

  private recreate(name: string): void {
    (this.options.systemClient ?? this.client)
      .create({ group: '', version: 'v1', resource: 'namespaces' }, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
      .catch((err: unknown) => {
        if (!(err instanceof StatusError && err.code === 409))
          this.options.log?.(`namespace controller: recreating ${name}: ${String(err)}`);
      });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.whenSynced();
    for (let i = 0; i < (this.options.workers ?? 10); i++) this.running.push(this.worker());
  }

  private worker(): Promise<void> {
    return runWorker(
      this.queue,
      (name) => this.deleteNamespace(name),
      (name, err) => this.options.log?.(`namespace controller: ${name}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private async deleteNamespace(name: string): Promise<ItemResult | undefined> {
    try {
      await this.deleter.delete(name);
      return undefined;
    } catch (err) {
      if (!(err instanceof ResourcesRemainingError)) throw err;
      // R5.18: re-check after estimate/2 + 1 s, bounded by maxRecheckMs.
      return { requeueAfterMs: Math.min((err.estimateSeconds / 2 + 1) * 1000, this.options.maxRecheckMs ?? 1000) };
    }
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }
}
