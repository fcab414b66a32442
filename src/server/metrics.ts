import type { ControllerManager } from '../controllers/manager.js';
import type { QueueMetrics } from '../workqueue/metrics.js';

/** Prometheus text exposition of the controllers' counters (R4.40): queue depth, adds, retries, GC deletions. */
export function renderMetrics(controllers: ControllerManager | undefined): string {
  const lines: string[] = [];
  const gc = controllers?.garbageCollector;
  const queues: [string, QueueMetrics | undefined][] = [
    ['garbage_collector_attempt_to_delete', gc?.metrics.attemptToDelete],
    ['garbage_collector_attempt_to_orphan', gc?.metrics.attemptToOrphan],
  ];
  const series = (name: string, type: string, help: string, values: [string, number][]): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [label, value] of values) lines.push(`${name}{name="${label}"} ${value}`);
  };
  const known = queues.filter((q): q is [string, QueueMetrics] => q[1] !== undefined);
  series('workqueue_depth', 'gauge', 'Current depth of workqueue', known.map(([n, m]) => [n, m.depth]));
  series('workqueue_adds_total', 'counter', 'Total number of adds handled by workqueue', known.map(([n, m]) => [n, m.adds]));
  series('workqueue_retries_total', 'counter', 'Total number of retries handled by workqueue', known.map(([n, m]) => [n, m.retries]));
  if (gc !== undefined) {
    lines.push('# HELP garbagecollector_controller_resources_sync_error_total Number of garbage collector resources sync errors');
    lines.push('# TYPE garbagecollector_controller_resources_sync_error_total counter');
    lines.push(`garbagecollector_controller_resources_sync_error_total ${gc.metrics.syncErrors}`);
    lines.push('# HELP cascade_garbage_collector_deletions_total Objects the garbage collector deleted');
    lines.push('# TYPE cascade_garbage_collector_deletions_total counter');
    lines.push(`cascade_garbage_collector_deletions_total ${gc.deletions}`);
  }
  return `${lines.join('\n')}\n`;
}
