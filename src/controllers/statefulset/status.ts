import type { KubeObject } from '../../api/types.js';
import { numberOr } from '../workloads/pods.js';
import {
  isCreated,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  podRevision,
  replicaCount,
  specOf,
  statusOf,
} from './identity.js';

/** The StatefulSet status fields the controller owns (R12.87). */
export interface SetStatus {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
}

/** computeReplicaStatus over the pods in range (created or still to create) and the condemned ones. */
export function computeStatus(
  set: KubeObject,
  pods: readonly KubeObject[],
  revisions: { current: string; update: string; collisionCount: number },
  now: number,
): SetStatus {
  const minReadySeconds = numberOr(specOf(set).minReadySeconds, 0);
  const status: SetStatus = {
    observedGeneration: set.metadata.generation ?? 0,
    replicas: 0,
    readyReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    availableReplicas: 0,
    currentRevision: revisions.current,
    updateRevision: revisions.update,
    collisionCount: revisions.collisionCount,
  };
  for (const pod of pods) {
    if (!isCreated(pod)) continue;
    status.replicas++;
    if (isRunningAndReady(pod)) {
      status.readyReplicas++;
      if (isRunningAndAvailable(pod, minReadySeconds, now)) status.availableReplicas++;
    }
    if (isTerminating(pod)) continue;
    const revision = podRevision(pod);
    if (revision === revisions.current) status.currentReplicas++;
    if (revision === revisions.update) status.updatedReplicas++;
  }
  return status;
}

/** completeRollingUpdate: once all the wanted pods are updated and ready, the update revision becomes the current one. */
export function completeRollingUpdate(set: KubeObject, status: SetStatus): void {
  const strategy = specOf(set).updateStrategy as { type?: string } | undefined;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
  const wanted = replicaCount(set);
  if (status.updatedReplicas === wanted && status.readyReplicas === wanted && status.replicas === wanted) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** The status as stored: zero counters omitted as their omitempty tags do, `replicas` and `availableReplicas` kept. */
export function renderStatus(set: KubeObject, status: SetStatus): Record<string, unknown> {
  const old = statusOf(set);
  const out: Record<string, unknown> = { ...old };
  for (const [key, value] of Object.entries(status)) {
    const keep = key === 'replicas' || key === 'availableReplicas' || key === 'collisionCount';
    if (keep || (value !== 0 && value !== '')) out[key] = value;
    else delete out[key];
  }
  return out;
}

/** inconsistentStatus: true when a write would change what the controller owns. */
export function statusDiffers(set: KubeObject, status: SetStatus): boolean {
  const old = statusOf(set);
  for (const [key, value] of Object.entries(status)) {
    const stored = old[key] ?? (typeof value === 'string' ? '' : 0);
    if (stored !== value) return true;
  }
  return false;
}
