import { maybeYield } from '../util/yield-to-event-loop.js';
import type { RateLimitedQueue } from './rate-limited-queue.js';

/** What processing an item decided: done with it, retried with backoff, or looked at again after a fixed delay. */
export type ItemResult = 'forget' | 'requeue' | { readonly requeueAfterMs: number };

/** The queue operations a worker needs (client-go's rate-limiting work queue). */
export type WorkerQueue<T> = Pick<RateLimitedQueue<T>, 'get' | 'tryGet' | 'done' | 'forget' | 'addRateLimited' | 'addAfter'>;

/**
 * client-go's worker loop (processNextWorkItem until the queue shuts down). An item processed without a result
 * is done with: its backoff restarts. One whose processing throws is reported through `onError` and retried with
 * backoff. Items waiting are taken without a promise (a cascade's workers drain thousands), and the loop yields to
 * the event loop between items once the turn's budget is spent, so long queues never starve the HTTP server.
 */
export async function runWorker<T>(
  queue: WorkerQueue<T>,
  process: (item: T) => Promise<ItemResult | void>,
  onError: (item: T, err: unknown) => void,
): Promise<void> {
  for (;;) {
    const item = queue.tryGet() ?? (await queue.get());
    if (item === undefined) return;
    try {
      const result = await process(item);
      if (result === undefined || result === 'forget') queue.forget(item);
      else if (result === 'requeue') queue.addRateLimited(item);
      else {
        queue.forget(item);
        queue.addAfter(item, result.requeueAfterMs);
      }
    } catch (err) {
      onError(item, err);
      queue.addRateLimited(item);
    } finally {
      queue.done(item);
    }
    const turn = maybeYield();
    if (turn !== undefined) await turn;
  }
}
