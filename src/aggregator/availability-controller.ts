/**
 * kube-aggregator's APIService availability controllers (status/remote and status/local): every APIService gets
 * an `Available` condition, written through /status only when it changed. Remote ones are checked on every change
 * to the APIService or its Service, Endpoints or EndpointSlices, periodically, and — after a failed probe — again
 * with per-item exponential backoff.
 */

import { StatusError } from '../api/errors.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { ApiClient } from '../client/interface.js';
import { createItemExponentialFailureRateLimiter } from '../workqueue/rate-limiter.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../workqueue/rate-limited-queue.js';
import { runWorker } from '../workqueue/worker.js';
import type { AggregatorCaches } from './aggregator-caches.js';
import { APISERVICES, type ApiServiceEntry, type ConditionStatus, parseApiService } from './api-service.js';
import type { FrontProxyCredentials } from './backend-transport.js';
import { checkDiscovery } from './discovery-check.js';
import type { DiscoveryDocuments } from './discovery-documents.js';
import { checkServiceEndpoints, resolveEndpoint } from './endpoint-resolver.js';

export interface AvailabilityControllerOptions {
  readonly client: ApiClient;
  readonly caches: AggregatorCaches;
  readonly documents: DiscoveryDocuments;
  readonly credentials: FrontProxyCredentials;
  /** Kubernetes re-checks every APIService each 30 s (its informer resync); failed probes are retried sooner. */
  readonly recheckIntervalMs: number;
  /** Kubernetes: 5 s. */
  readonly discoveryTimeoutMs: number;
  readonly workers?: number;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
}

interface ComputedCondition {
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** The probe failed: the status was written, and the item is retried with backoff. */
class DiscoveryCheckFailed extends Error {}

type Condition = Record<string, unknown>;

function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** SetAPIServiceCondition: replaces the Available condition, keeping lastTransitionTime unless the status flips. */
function withCondition(conditions: readonly Condition[], computed: ComputedCondition, now: string): Condition[] {
  const previous = conditions.find((c) => c.type === 'Available');
  const lastTransitionTime =
    previous !== undefined && previous.status === computed.status && typeof previous.lastTransitionTime === 'string'
      ? previous.lastTransitionTime
      : now;
  const next: Condition = {
    type: 'Available',
    status: computed.status,
    lastTransitionTime,
    reason: computed.reason,
    message: computed.message,
  };
  return previous === undefined ? [...conditions, next] : conditions.map((c) => (c === previous ? next : c));
}

export class AvailabilityController {
  private readonly options: AvailabilityControllerOptions;
  private readonly queue: RateLimitedQueue<string>;
  private readonly running: Promise<void>[] = [];
  private unsubscribe: (() => void) | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: AvailabilityControllerOptions) {
    this.options = options;
    this.queue = createRateLimitedQueue<string>({
      rateLimiter: createItemExponentialFailureRateLimiter<string>({
        baseDelayMs: 5,
        maxDelayMs: Math.min(30_000, options.recheckIntervalMs),
      }),
    });
  }

  /** Call after the caches have synced. */
  start(): void {
    const { caches } = this.options;
    this.unsubscribe = caches.onChange((names) => {
      for (const name of names) this.queue.add(name);
    });
    for (const entry of caches.apiServices()) this.queue.add(entry.name);
    this.timer = setInterval(() => {
      for (const entry of caches.apiServices()) this.queue.add(entry.name);
    }, this.options.recheckIntervalMs);
    this.timer.unref();
    for (let i = 0; i < (this.options.workers ?? 5); i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer !== undefined) clearInterval(this.timer);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  private worker(): Promise<void> {
    return runWorker(
      this.queue,
      (name) => this.sync(name),
      (name, err) => {
        if (!(err instanceof DiscoveryCheckFailed))
          this.options.log?.(`APIService ${name} availability: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }

  private async sync(name: string): Promise<void> {
    const obj = this.options.caches.apiServiceObject(name);
    if (obj === undefined) {
      this.options.documents.forget(name);
      return;
    }
    const entry = parseApiService(obj);
    const computed = await this.evaluate(entry);
    await this.writeStatus(obj, computed);
    if (computed.reason === 'FailedDiscoveryCheck') throw new DiscoveryCheckFailed(computed.message);
  }

  private async evaluate(entry: ApiServiceEntry): Promise<ComputedCondition> {
    const { caches, documents } = this.options;
    if (entry.service === undefined) {
      documents.forget(entry.name);
      return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
    }
    const failedCheck = checkServiceEndpoints(entry.service, caches.lookups);
    if (failedCheck !== undefined) {
      documents.forget(entry.name);
      return { status: 'False', ...failedCheck };
    }
    const resolved = resolveEndpoint(entry.service, caches.lookups);
    if (!resolved.ok) {
      documents.forget(entry.name);
      return { status: 'False', reason: 'FailedDiscoveryCheck', message: resolved.error };
    }
    const result = await checkDiscovery(entry, resolved.endpoint, this.options.credentials, this.options.discoveryTimeoutMs);
    if (!result.ok) {
      documents.forget(entry.name);
      return { status: 'False', reason: 'FailedDiscoveryCheck', message: result.message };
    }
    if (result.list !== undefined) documents.set(entry.name, result.list);
    else {
      documents.forget(entry.name);
      this.options.log?.(`APIService ${entry.name}: ${result.listError ?? 'no discovery document'}`);
    }
    return { status: 'True', reason: 'Passed', message: 'all checks passed' };
  }

  /** updateAPIServiceStatus: no write when nothing changed, so the tight re-check loop issues no no-op updates. */
  private async writeStatus(obj: KubeObject, computed: ComputedCondition): Promise<void> {
    const status = isObject(obj.status) ? obj.status : {};
    const conditions = Array.isArray(status.conditions) ? (status.conditions.filter(isObject) as Condition[]) : [];
    const now = rfc3339((this.options.now ?? (() => new Date()))());
    const next = withCondition(conditions, computed, now);
    if (JSON.stringify(next) === JSON.stringify(conditions)) return;
    try {
      await this.options.client.update(APISERVICES, undefined, { ...obj, status: { ...status, conditions: next } }, 'status');
    } catch (err) {
      // The cache was behind; the informer's update re-queues the APIService with the newer object.
      if (err instanceof StatusError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
  }
}
