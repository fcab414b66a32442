/**
 * Counters a work queue keeps up to date (a subset of client-go's workqueue metrics), as plain numbers a metrics
 * endpoint can read at any time. `depth` is the number of items waiting to be handed out; `adds` counts accepted
 * (not deduplicated) adds; `retries` counts delayed re-adds (addAfter / addRateLimited).
 */
export interface QueueMetrics {
  readonly name: string;
  depth: number;
  adds: number;
  retries: number;
}

export function createQueueMetrics(name: string): QueueMetrics {
  return { name, depth: 0, adds: 0, retries: 0 };
}

/** The queues of one process (or one controller manager), by name. */
export interface QueueMetricsRegistry {
  /** Counters for a new queue; a name can be registered once, as two queues sharing counters would report nonsense. */
  register(name: string): QueueMetrics;
  all(): readonly QueueMetrics[];
}

export function createQueueMetricsRegistry(): QueueMetricsRegistry {
  const byName = new Map<string, QueueMetrics>();
  return {
    register(name) {
      if (byName.has(name)) throw new Error(`a work queue named "${name}" is already registered`);
      const metrics = createQueueMetrics(name);
      byName.set(name, metrics);
      return metrics;
    },
    all: () => [...byName.values()],
  };
}
