import { createQueueMetrics, type QueueMetrics } from '../../workqueue/metrics.js';

/** What one in-use protection controller did, as counters /metrics exposes (labelled by `controller`). */
export interface ProtectionMetrics {
  readonly controller: string;
  readonly queue: QueueMetrics;
  /** Live LISTs of users made before removing a finalizer (the design's expensive query). */
  liveLists: number;
  /** Deletion candidates kept because the informer cache already showed a user (no API call). */
  cacheHits: number;
  finalizersAdded: number;
  finalizersRemoved: number;
}

export function createProtectionMetrics(controller: string): ProtectionMetrics {
  return { controller, queue: createQueueMetrics(controller), liveLists: 0, cacheHits: 0, finalizersAdded: 0, finalizersRemoved: 0 };
}
