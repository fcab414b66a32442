import type { ControllerManager } from '../controllers/manager.js';
import type { ProtectionMetrics } from '../controllers/protection/metrics.js';
import type { QueueMetrics } from '../workqueue/metrics.js';
import type { OperationMetrics } from '../storage/backend.js';
import { REQUEST_DURATION_BUCKETS } from '../storage/request-metrics.js';

/** Prometheus text exposition of the controllers' counters (R4.40): queue depth, adds, retries, GC deletions, in-use protection. */
export function renderMetrics(controllers: ControllerManager | undefined, storage?: readonly OperationMetrics[]): string {
  const lines: string[] = [];
  const gc = controllers?.garbageCollector;
  const protection = controllers?.protectionMetrics() ?? [];
  const queues: [string, QueueMetrics | undefined][] = [
    ['garbage_collector_attempt_to_delete', gc?.metrics.attemptToDelete],
    ['garbage_collector_attempt_to_orphan', gc?.metrics.attemptToOrphan],
    ...protection.map((p): [string, QueueMetrics] => [p.controller, p.queue]),
  ];
  const series = (name: string, type: string, help: string, values: [string, number][]): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [label, value] of values) lines.push(`${name}{name="${label}"} ${value}`);
  };
  const known = queues.filter((q): q is [string, QueueMetrics] => q[1] !== undefined);
  series(
    'workqueue_depth',
    'gauge',
    'Current depth of workqueue',
    known.map(([n, m]) => [n, m.depth]),
  );
  series(
    'workqueue_adds_total',
    'counter',
    'Total number of adds handled by workqueue',
    known.map(([n, m]) => [n, m.adds]),
  );
  series(
    'workqueue_retries_total',
    'counter',
    'Total number of retries handled by workqueue',
    known.map(([n, m]) => [n, m.retries]),
  );
  if (gc !== undefined) {
    lines.push('# HELP garbagecollector_controller_resources_sync_error_total Number of garbage collector resources sync errors');
    lines.push('# TYPE garbagecollector_controller_resources_sync_error_total counter');
    lines.push(`garbagecollector_controller_resources_sync_error_total ${gc.metrics.syncErrors}`);
    lines.push('# HELP cascade_garbage_collector_deletions_total Objects the garbage collector deleted');
    lines.push('# TYPE cascade_garbage_collector_deletions_total counter');
    lines.push(`cascade_garbage_collector_deletions_total ${gc.deletions}`);
  }
  if (protection.length > 0) {
    const perController = (name: string, help: string, value: (p: ProtectionMetrics) => number): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const p of protection) lines.push(`${name}{controller="${p.controller}"} ${value(p)}`);
    };
    perController(
      'cascade_protection_live_lists_total',
      'Live LISTs of possible users made before removing an in-use protection finalizer',
      (p) => p.liveLists,
    );
    perController(
      'cascade_protection_cache_hits_total',
      'Deletion candidates kept because the informer cache showed a user',
      (p) => p.cacheHits,
    );
    perController(
      'cascade_protection_finalizers_added_total',
      'In-use protection finalizers added to existing objects',
      (p) => p.finalizersAdded,
    );
    perController(
      'cascade_protection_finalizers_removed_total',
      'In-use protection finalizers removed from unused objects',
      (p) => p.finalizersRemoved,
    );
  }
  if (storage !== undefined) lines.push(...storageSeries(storage));
  return `${lines.join('\n')}\n`;
}

/** kube-apiserver's (1.32) etcd request series, labelled by storage operation and resource type. */
function storageSeries(operations: readonly OperationMetrics[]): string[] {
  const labelsOf = (op: OperationMetrics): string => `operation="${op.operation}",type="${op.type}"`;
  const lines = [
    '# HELP etcd_request_duration_seconds Etcd request latency in seconds for each operation and object type.',
    '# TYPE etcd_request_duration_seconds histogram',
  ];
  for (const op of operations) {
    const label = labelsOf(op);
    REQUEST_DURATION_BUCKETS.forEach((bound, i) => {
      lines.push(`etcd_request_duration_seconds_bucket{${label},le="${bound}"} ${op.bucketCounts[i] ?? 0}`);
    });
    lines.push(`etcd_request_duration_seconds_bucket{${label},le="+Inf"} ${op.requests}`);
    lines.push(`etcd_request_duration_seconds_sum{${label}} ${op.sumSeconds}`);
    lines.push(`etcd_request_duration_seconds_count{${label}} ${op.requests}`);
  }
  lines.push('# HELP etcd_requests_total Etcd request counts for each operation and object type.', '# TYPE etcd_requests_total counter');
  for (const op of operations) lines.push(`etcd_requests_total{${labelsOf(op)}} ${op.requests}`);
  lines.push(
    '# HELP etcd_request_errors_total Etcd failed request counts for each operation and object type.',
    '# TYPE etcd_request_errors_total counter',
  );
  for (const op of operations) lines.push(`etcd_request_errors_total{${labelsOf(op)}} ${op.failures}`);
  return lines;
}
