import type { ApiClient, ResourceRef } from '../client/interface.js';
import { type Cancel, realClock } from '../workqueue/clock.js';
import { createSharedInformer, type SharedInformer, type SharedInformerOptions } from './shared-informer.js';

/**
 * Hands out one shared informer per (resource, namespace), so controllers watching the same collection share a
 * cache and a watch (client-go's SharedInformerFactory). Informers asked for after `start` start at once.
 */
export interface InformerFactory {
  informerFor(ref: ResourceRef, namespace?: string): SharedInformer;
  start(): void;
  /** Stops every informer and resolves once all have stopped. */
  stop(): Promise<void>;
  /** True once every informer handed out so far has synced; false if that takes longer than `timeoutMs`. */
  waitForSync(timeoutMs: number): Promise<boolean>;
}

export function createInformerFactory(client: ApiClient, options: SharedInformerOptions = {}): InformerFactory {
  const clock = options.clock ?? realClock;
  const informers = new Map<string, SharedInformer>();
  let state: 'new' | 'started' | 'stopped' = 'new';

  return {
    informerFor(ref, namespace) {
      if (state === 'stopped') throw new Error('the informer factory has been stopped');
      const key = `${ref.group}/${ref.version}/${ref.resource}/${namespace ?? ''}`;
      let informer = informers.get(key);
      if (informer === undefined) {
        informer = createSharedInformer(client, ref, namespace, options);
        informers.set(key, informer);
        if (state === 'started') informer.start();
      }
      return informer;
    },
    start() {
      if (state === 'stopped') throw new Error('the informer factory has been stopped');
      state = 'started';
      for (const informer of informers.values()) informer.start();
    },
    async stop() {
      state = 'stopped';
      await Promise.all([...informers.values()].map((i) => i.stop()));
    },
    async waitForSync(timeoutMs) {
      const all = Promise.all([...informers.values()].map((i) => i.whenSynced())).then((results) => results.every(Boolean));
      let cancel: Cancel | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        cancel = clock.setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        return await Promise.race([all, timedOut]);
      } finally {
        cancel?.();
      }
    },
  };
}
