import type { Backend } from '../src/storage/backend.js';

export interface DeletionClock {
  /** The backend to hand the server: the wrapped one, with deletes observed. */
  readonly backend: Backend;
  /**
   * Resolves with `performance.now()` at the moment the `count`-th key under `prefix` has been deleted from
   * storage (counting from this call on); rejects after `timeoutMs` saying how many were still present.
   */
  expect(prefix: string, count: number, timeoutMs: number): Promise<number>;
}

/**
 * Times "the last object is gone" exactly, at the storage write that removes it. Polling a count instead would
 * walk every remaining key on each poll and steal the CPU the collector needs on a 2-core machine, or be
 * quantised by its interval.
 */
export function createDeletionClock(inner: Backend): DeletionClock {
  let watched: { prefix: string; left: number; done: (at: number) => void } | undefined;
  const observe = (key: string): void => {
    if (watched !== undefined && key.startsWith(watched.prefix) && --watched.left === 0) watched.done(performance.now());
  };
  const backend: Backend = {
    ...inner,
    async delete(key, expectedModRevision) {
      const kv = await inner.delete(key, expectedModRevision);
      observe(key);
      return kv;
    },
    // With the archive on (issue 28), removals write their archive entry in the same call.
    async deleteAndPut(key, expectedModRevision, record) {
      const kv = await inner.deleteAndPut(key, expectedModRevision, record);
      observe(key);
      return kv;
    },
  };
  return {
    backend,
    expect(prefix, count, timeoutMs) {
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`${watched?.left ?? count} of ${count} objects under ${prefix} still present after ${timeoutMs} ms`));
          watched = undefined;
        }, timeoutMs);
        watched = {
          prefix,
          left: count,
          done: (at) => {
            clearTimeout(timer);
            watched = undefined;
            resolve(at);
          },
        };
      });
    },
  };
}
