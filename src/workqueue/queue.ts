import { Fifo } from './fifo.js';
import { createQueueMetrics, type QueueMetrics } from './metrics.js';

/** What makes two items "the same item" for deduplication; the default compares the items themselves (===). */
export type KeyOf<T> = (item: T) => unknown;

/**
 * client-go's workqueue.Interface. Contract:
 * - `add` of an item that is already waiting does nothing; an item being processed that is added again waits until
 *   its `done` and is then queued once more — so no item is ever handed to two workers at once.
 * - `get` hands out items in the order they were queued, waiting while the queue is empty. After `shutDown` it still
 *   hands out what was already queued (client-go drains too) and resolves `undefined` once the queue is empty.
 * - Every item got must be passed to `done` when its processing ends, success or failure.
 */
export interface Queue<T> {
  add(item: T): void;
  get(): Promise<T | undefined>;
  /**
   * The next item when one is waiting, handed out as `get` would but without a promise; undefined otherwise.
   * Workers draining a long queue (a cascade's dependents) take items this way and await `get` only when it is empty.
   */
  tryGet(): T | undefined;
  done(item: T): void;
  /** Items waiting to be handed out (not those being processed). */
  len(): number;
  shutDown(): void;
  readonly shuttingDown: boolean;
  readonly metrics: QueueMetrics;
}

export interface QueueOptions<T> {
  readonly keyOf?: KeyOf<T>;
  /** Counters to keep up to date; by default the queue keeps private ones (still readable as `queue.metrics`). */
  readonly metrics?: QueueMetrics;
}

export const identityKey = <T>(item: T): unknown => item;

export function createQueue<T>(options: QueueOptions<T> = {}): Queue<T> {
  const keyOf: KeyOf<T> = options.keyOf ?? identityKey;
  const metrics = options.metrics ?? createQueueMetrics('');
  // `dirty` holds every item that needs processing (waiting, or re-added while processing); `order` holds the keys
  // of those that may be handed out now, in order.
  const dirty = new Map<unknown, T>();
  const processing = new Set<unknown>();
  const order = new Fifo<unknown>();
  const waiters = new Fifo<(item: T | undefined) => void>();
  let shuttingDown = false;

  const take = (): T => {
    const key = order.shift();
    const item = dirty.get(key) as T;
    dirty.delete(key);
    processing.add(key);
    metrics.depth--;
    return item;
  };
  const enqueue = (key: unknown): void => {
    order.push(key);
    metrics.depth++;
    const waiter = waiters.shift();
    if (waiter !== undefined) waiter(take());
  };

  return {
    add(item) {
      if (shuttingDown) return;
      const key = keyOf(item);
      if (dirty.has(key)) return;
      metrics.adds++;
      dirty.set(key, item);
      if (!processing.has(key)) enqueue(key);
    },
    tryGet: () => (order.length > 0 ? take() : undefined),
    get() {
      if (order.length > 0) return Promise.resolve(take());
      if (shuttingDown) return Promise.resolve(undefined);
      return new Promise<T | undefined>((resolve) => waiters.push(resolve));
    },
    done(item) {
      const key = keyOf(item);
      if (!processing.delete(key)) return;
      if (dirty.has(key)) enqueue(key);
    },
    len: () => order.length,
    shutDown() {
      shuttingDown = true;
      // Waiters only exist while nothing is queued, so none of them can be owed an item.
      for (let w = waiters.shift(); w !== undefined; w = waiters.shift()) w(undefined);
    },
    get shuttingDown() {
      return shuttingDown;
    },
    metrics,
  };
}
