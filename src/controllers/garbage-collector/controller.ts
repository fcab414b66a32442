import type { ApiClient } from '../../client/interface.js';
import { type Clock, realClock } from '../../workqueue/clock.js';
import { createQueueMetrics, type QueueMetrics } from '../../workqueue/metrics.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { createDefaultControllerRateLimiter } from '../../workqueue/rate-limiter.js';
import { runWorker } from '../../workqueue/worker.js';
import { dumpGraph, type GraphDump } from './dump.js';
import { GarbageCollectorWorkers } from './garbage-collector.js';
import type { GraphNode } from './graph.js';
import { GraphBuilder } from './graph-builder.js';
import { GracePropagator } from './grace-propagation.js';
import { ownerRefInvalidNamespaceRecorder } from './invalid-reference-event.js';
import { Monitors } from './monitors.js';
import { GcOperations } from './operations.js';
import { OrphanAcknowledgement, type OrphanAcknowledgementOptions } from './orphan-acknowledgement.js';

export interface GarbageCollectorOptions {
  readonly client: ApiClient;
  /** Workers per queue (--concurrent-gc-syncs; Kubernetes defaults to 20). */
  readonly workers?: number;
  /** How often discovery is re-read for new or removed resources (Kubernetes: 30 s; here well under 1 s). */
  readonly discoveryIntervalMs?: number;
  /** Start workers after this long even if some monitors have not synced (R4.8). */
  readonly syncTimeoutMs?: number;
  readonly clock?: Clock;
  readonly log?: (message: string) => void;
  /** Keep a foreground owner waiting for a blocking dependent that has another live owner (instead of D1). */
  readonly strictBlockOwnerDeletion?: boolean;
  /** Extension A (--orphan-waits-for-observed-generation): absent, orphaning does not wait (Kubernetes). */
  readonly orphanAcknowledgement?: Omit<OrphanAcknowledgementOptions, 'now'>;
  /** Extension B (--propagate-grace-period): process owners carrying the populating-graceful-deletion finalizer. */
  readonly propagateGracePeriod?: boolean;
}

/**
 * The garbage collector controller: monitors (informers) feed the graph builder, whose queues feed the
 * attemptToDelete and attemptToOrphan workers. Discovery is re-read periodically so custom resources join
 * (and leave) the graph shortly after they are established (R4.5–R4.8).
 */
export class GarbageCollector {
  readonly builder: GraphBuilder;
  readonly attemptToDelete: RateLimitedQueue<GraphNode>;
  readonly attemptToOrphan: RateLimitedQueue<GraphNode>;
  /** Owners (by uid) whose grace period is propagated (extension B); absent when that is off. */
  private readonly grace: { readonly queue: RateLimitedQueue<string>; readonly propagator: GracePropagator } | undefined;
  readonly metrics: { attemptToDelete: QueueMetrics; attemptToOrphan: QueueMetrics; syncErrors: number };
  private readonly client: ApiClient;
  private readonly ops: GcOperations;
  private readonly workers: GarbageCollectorWorkers;
  private readonly monitors: Monitors;
  private readonly options: GarbageCollectorOptions;
  private readonly clock: Clock;
  private discoveryTimer: ReturnType<typeof setInterval> | undefined;
  private unsubscribeDiscovery: (() => void) | undefined;
  private running: Promise<void>[] = [];
  /** Set by stop(), which may come while start() still waits for the monitors: start must then start nothing more. */
  private stopped = false;
  private readonly log: (message: string) => void;

  constructor(options: GarbageCollectorOptions) {
    this.options = options;
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.log = options.log ?? (() => {});
    const queue = (metrics: QueueMetrics): RateLimitedQueue<GraphNode> =>
      createRateLimitedQueue<GraphNode>({
        clock: this.clock,
        metrics,
        // Failed items back off per item as in Kubernetes; the overall bucket is lifted, because an in-process
        // client has no API server to protect and a cascade of 10,000 objects must finish in under a second.
        rateLimiter: createDefaultControllerRateLimiter<GraphNode>({
          clock: this.clock,
          qps: Number.POSITIVE_INFINITY,
          burst: Number.MAX_SAFE_INTEGER,
        }),
      });
    this.metrics = {
      attemptToDelete: createQueueMetrics('garbage_collector_attempt_to_delete'),
      attemptToOrphan: createQueueMetrics('garbage_collector_attempt_to_orphan'),
      syncErrors: 0,
    };
    this.attemptToDelete = queue(this.metrics.attemptToDelete);
    this.attemptToOrphan = queue(this.metrics.attemptToOrphan);
    this.ops = new GcOperations(this.client);
    this.builder = new GraphBuilder(
      this.attemptToDelete,
      this.attemptToOrphan,
      ownerRefInvalidNamespaceRecorder(this.ops, () => new Date(this.clock.now()), this.log),
    );
    this.workers = new GarbageCollectorWorkers(this.builder, this.ops, {
      strictBlockOwnerDeletion: options.strictBlockOwnerDeletion,
      now: () => new Date(),
      orphanAcknowledgement:
        options.orphanAcknowledgement === undefined
          ? undefined
          : new OrphanAcknowledgement({ ...options.orphanAcknowledgement, now: () => this.clock.now() }),
    });
    if (options.propagateGracePeriod === true) {
      const graceQueue = createRateLimitedQueue<string>({
        clock: this.clock,
        rateLimiter: createDefaultControllerRateLimiter<string>({ clock: this.clock }),
      });
      this.grace = { queue: graceQueue, propagator: new GracePropagator(this.builder.graph, this.ops, graceQueue) };
    }
    const grace = this.grace?.propagator;
    this.monitors = new Monitors(this.client, (change) => {
      this.builder.process(change);
      grace?.observe(change);
    });
  }

  get deletions(): number {
    return this.workers.deletions.count;
  }

  async start(): Promise<void> {
    await this.resyncDiscovery();
    const deadline = this.clock.now() + (this.options.syncTimeoutMs ?? 30_000);
    while (!this.stopped && !this.monitors.hasSynced() && this.clock.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    if (this.stopped) return;
    const workers = this.options.workers ?? 20;
    const report = (node: GraphNode, err: unknown): void =>
      this.log(`garbage collector: ${this.builder.describe(node)}: ${err instanceof Error ? err.message : String(err)}`);
    for (let i = 0; i < workers; i++) {
      this.running.push(runWorker(this.attemptToDelete, (node) => this.workers.attemptToDeleteItem(node, this.attemptToDelete), report));
      this.running.push(runWorker(this.attemptToOrphan, (node) => this.workers.attemptToOrphanItem(node), report));
      const grace = this.grace;
      if (grace !== undefined)
        this.running.push(
          runWorker(
            grace.queue,
            (uid) => grace.propagator.process(uid),
            (uid, err) => this.log(`garbage collector: propagating the grace period of ${uid}: ${String(err)}`),
          ),
        );
    }
    const resync = (): void => {
      this.resyncDiscovery().catch((err: unknown) => {
        this.metrics.syncErrors++;
        this.log(`garbage collector: discovery failed: ${String(err)}`);
      });
    };
    // Told at once where the client can tell (in-process); the periodic re-read covers every other client.
    this.unsubscribeDiscovery = this.client.onDiscoveryChange?.(() => queueMicrotask(resync));
    this.discoveryTimer = setInterval(resync, this.options.discoveryIntervalMs ?? 500);
    this.discoveryTimer.unref();
  }

  private async resyncDiscovery(): Promise<void> {
    const resources = await this.client.discover();
    if (this.stopped) return;
    if (resources.length === 0) {
      this.metrics.syncErrors++;
      return;
    }
    this.ops.setResources(resources);
    this.monitors.sync(resources);
  }

  /** Owners and dependents of an object, with their deletion state (the debug endpoint). */
  graphOf(uid: string): GraphDump | undefined {
    return dumpGraph(this.builder.graph, uid);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.discoveryTimer !== undefined) clearInterval(this.discoveryTimer);
    this.unsubscribeDiscovery?.();
    this.monitors.stop();
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
    this.grace?.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }
}
