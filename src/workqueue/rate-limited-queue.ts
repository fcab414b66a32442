import type { Clock } from './clock.js';
import { createDelayingQueue, type DelayingQueue } from './delaying-queue.js';
import type { KeyOf } from './queue.js';
import { createDefaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';
import type { QueueMetrics } from './metrics.js';

/**
 * A DelayingQueue whose retries wait as long as a RateLimiter says (client-go's RateLimitingInterface). A worker
 * calls `addRateLimited` when processing failed and `forget` when it succeeded, so the item's backoff restarts.
 */
export interface RateLimitedQueue<T> extends DelayingQueue<T> {
  addRateLimited(item: T): void;
  forget(item: T): void;
  numRequeues(item: T): number;
}

export interface RateLimitedQueueOptions<T> {
  /** Default: createDefaultControllerRateLimiter with this queue's clock and keyOf. */
  readonly rateLimiter?: RateLimiter<T>;
  readonly clock?: Clock;
  readonly keyOf?: KeyOf<T>;
  readonly metrics?: QueueMetrics;
}

export function createRateLimitedQueue<T>(options: RateLimitedQueueOptions<T> = {}): RateLimitedQueue<T> {
  const limiter = options.rateLimiter ?? createDefaultControllerRateLimiter<T>({ clock: options.clock, keyOf: options.keyOf });
  const queue = createDelayingQueue<T>(options);
  return {
    add: (item) => queue.add(item),
    get: () => queue.get(),
    tryGet: () => queue.tryGet(),
    done: (item) => queue.done(item),
    len: () => queue.len(),
    shutDown: () => queue.shutDown(),
    get shuttingDown() {
      return queue.shuttingDown;
    },
    metrics: queue.metrics,
    addAfter: (item, ms) => queue.addAfter(item, ms),
    addRateLimited: (item) => queue.addAfter(item, limiter.when(item)),
    forget: (item) => limiter.forget(item),
    numRequeues: (item) => limiter.numRequeues(item),
  };
}
