import { type Cancel, type Clock, realClock } from './clock.js';
import { createQueue, identityKey, type KeyOf, type Queue, type QueueOptions } from './queue.js';
import { WaitingHeap, type WaitingEntry } from './waiting-heap.js';

/**
 * A Queue that can also add an item later (client-go's DelayingInterface). An item already waiting keeps the earlier
 * of its two ready times; a delay ≤ 0 adds at once. Waiting items are dropped by `shutDown`.
 */
export interface DelayingQueue<T> extends Queue<T> {
  addAfter(item: T, ms: number): void;
}

export interface DelayingQueueOptions<T> extends QueueOptions<T> {
  readonly clock?: Clock;
}

export function createDelayingQueue<T>(options: DelayingQueueOptions<T> = {}): DelayingQueue<T> {
  const clock = options.clock ?? realClock;
  const keyOf: KeyOf<T> = options.keyOf ?? identityKey;
  const queue = createQueue<T>(options);
  const heap = new WaitingHeap<T>();
  const waiting = new Map<unknown, WaitingEntry<T>>();
  let seq = 0;
  // One timer, armed for the earliest waiting entry.
  let armedFor: number | undefined;
  let cancelTimer: Cancel | undefined;

  const disarm = (): void => {
    cancelTimer?.();
    cancelTimer = undefined;
    armedFor = undefined;
  };
  const arm = (): void => {
    const next = heap.peek();
    if (next === undefined) {
      disarm();
      return;
    }
    if (armedFor === next.readyAt) return;
    disarm();
    armedFor = next.readyAt;
    cancelTimer = clock.setTimeout(fire, next.readyAt - clock.now());
  };
  function fire(): void {
    cancelTimer = undefined;
    armedFor = undefined;
    const now = clock.now();
    for (let next = heap.peek(); next !== undefined && next.readyAt <= now; next = heap.peek()) {
      heap.pop();
      waiting.delete(next.key);
      queue.add(next.item);
    }
    arm();
  }

  return {
    add: (item) => queue.add(item),
    get: () => queue.get(),
    tryGet: () => queue.tryGet(),
    done: (item) => queue.done(item),
    len: () => queue.len(),
    get shuttingDown() {
      return queue.shuttingDown;
    },
    metrics: queue.metrics,
    shutDown() {
      disarm();
      heap.clear();
      waiting.clear();
      queue.shutDown();
    },
    addAfter(item, ms) {
      if (queue.shuttingDown) return;
      queue.metrics.retries++;
      if (ms <= 0) {
        queue.add(item);
        return;
      }
      const key = keyOf(item);
      const readyAt = clock.now() + ms;
      const existing = waiting.get(key);
      if (existing !== undefined) {
        if (readyAt >= existing.readyAt) return;
        existing.readyAt = readyAt;
        heap.movedEarlier(existing);
      } else {
        const entry: WaitingEntry<T> = { key, item, readyAt, seq: seq++, index: -1 };
        waiting.set(key, entry);
        heap.push(entry);
      }
      arm();
    },
  };
}
