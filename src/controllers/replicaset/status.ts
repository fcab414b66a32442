import { isObject, type KubeObject } from '../../api/types.js';
import { isPodAvailable, isPodReady, numberOr } from '../workloads/pods.js';

export const REPLICA_FAILURE = 'ReplicaFailure';

/** An error from creating or deleting pods, with the condition reason it maps to. */
export interface ManageError {
  readonly reason: 'FailedCreate' | 'FailedDelete';
  readonly message: string;
}

/**
 * calculateStatus (R12.41, R12.42): counts over the claimed active pods, and the ReplicaFailure condition, set when
 * managing replicas failed (an existing one is kept as it was) and removed by a sync without such failure.
 */
export function calculateStatus(
  owner: KubeObject,
  pods: readonly KubeObject[],
  error: ManageError | undefined,
  now: number,
): Record<string, unknown> {
  const spec = isObject(owner.spec) ? owner.spec : {};
  const template = isObject(spec.template) ? spec.template : {};
  const templateLabels = isObject(template.metadata) && isObject(template.metadata.labels) ? template.metadata.labels : {};
  const minReadySeconds = numberOr(spec.minReadySeconds, 0);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    const labels = pod.metadata.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
  }
  const old = isObject(owner.status) ? owner.status : {};
  const oldConditions = Array.isArray(old.conditions) ? old.conditions.filter(isObject) : [];
  let conditions = oldConditions;
  const failure = oldConditions.find((c) => c.type === REPLICA_FAILURE);
  if (error !== undefined && failure === undefined) {
    const lastTransitionTime = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
    conditions = [
      ...oldConditions,
      { type: REPLICA_FAILURE, status: 'True', lastTransitionTime, reason: error.reason, message: error.message },
    ];
  } else if (error === undefined && failure !== undefined) {
    conditions = oldConditions.filter((c) => c !== failure);
  }
  const status: Record<string, unknown> = { replicas: pods.length };
  // The zero counters are omitted, as their omitempty tags do; `replicas` is always there.
  if (fullyLabeled > 0) status.fullyLabeledReplicas = fullyLabeled;
  if (ready > 0) status.readyReplicas = ready;
  if (available > 0) status.availableReplicas = available;
  const generation = owner.metadata.generation;
  if (typeof generation === 'number') status.observedGeneration = generation;
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

/** True when writing `next` would change nothing a client reads. */
export function sameStatus(owner: KubeObject, next: Record<string, unknown>): boolean {
  const old = isObject(owner.status) ? owner.status : {};
  for (const field of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    if (numberOr(old[field], 0) !== numberOr(next[field], 0)) return false;
  }
  return JSON.stringify(old.conditions ?? []) === JSON.stringify(next.conditions ?? []);
}
