import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createQueue } from './queue.js';
import { type ItemResult, runWorker, type WorkerQueue } from './worker.js';

/** A real queue for get/tryGet/done, recording what the worker decided for each item. */
function recordingQueue(): WorkerQueue<string> & { readonly log: string[]; add(item: string): void; shutDown(): void } {
  const queue = createQueue<string>();
  const log: string[] = [];
  return {
    log,
    add: (item) => queue.add(item),
    shutDown: () => queue.shutDown(),
    get: () => queue.get(),
    tryGet: () => queue.tryGet(),
    done: (item) => {
      log.push(`done ${item}`);
      queue.done(item);
    },
    forget: (item) => log.push(`forget ${item}`),
    addRateLimited: (item) => log.push(`rate-limited ${item}`),
    addAfter: (item, ms) => log.push(`after ${ms} ${item}`),
  };
}

test('runWorker applies each result, reports failures with backoff, and ends when the queue shuts down', async () => {
  const queue = recordingQueue();
  const results: Record<string, ItemResult | undefined | Error> = {
    plain: undefined,
    forgotten: 'forget',
    retried: 'requeue',
    later: { requeueAfterMs: 250 },
    broken: new Error('boom'),
  };
  for (const item of Object.keys(results)) queue.add(item);
  queue.shutDown();
  const errors: string[] = [];
  await runWorker(
    queue,
    async (item) => {
      const result = results[item];
      if (result instanceof Error) throw result;
      return result;
    },
    (item, err) => errors.push(`${item}: ${(err as Error).message}`),
  );
  assert.deepEqual(queue.log, [
    'forget plain',
    'done plain',
    'forget forgotten',
    'done forgotten',
    'rate-limited retried',
    'done retried',
    'forget later',
    'after 250 later',
    'done later',
    'rate-limited broken',
    'done broken',
  ]);
  assert.deepEqual(errors, ['broken: boom']);
});
