import type { KubeObject } from '../../api/types.js';

/**
 * Set by a Restore on a workload it recreates together with that workload's own dependents, and removed once they
 * all exist again (issue 28). Cascade's workload controllers leave a workload so marked alone: syncing it before
 * its archived ReplicaSets, Pods or Jobs are back would create fresh ones beside them. A Cascade extension;
 * kube-controller-manager knows nothing of it.
 */
export const RESTORING_ANNOTATION = 'cascade.dev/restoring';

/** The resources (qualified as an archive entry names them) whose controllers honour RESTORING_ANNOTATION. */
export const RESTORE_AWARE_RESOURCES: ReadonlySet<string> = new Set([
  'deployments.apps',
  'replicasets.apps',
  'replicationcontrollers',
  'statefulsets.apps',
  'daemonsets.apps',
  'jobs.batch',
  'cronjobs.batch',
]);

export function isBeingRestored(obj: KubeObject): boolean {
  return obj.metadata.annotations?.[RESTORING_ANNOTATION] !== undefined;
}
