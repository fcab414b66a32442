import { isObject, type KubeObject } from '../../api/types.js';
import { numberOr } from '../workloads/pods.js';
import { canonicalJson } from './hash.js';
import { hasProgressDeadline, maxUnavailable, replicasOf, specOf, statusCount, statusOf, sumOf } from './util.js';

export type Condition = Record<string, unknown> & { type: string; status: string; reason?: string; message?: string };
export type DeploymentStatus = Record<string, unknown> & { conditions?: Condition[] };

export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';
export const REPLICA_FAILURE = 'ReplicaFailure';
export const NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
export const TIMED_OUT = 'ProgressDeadlineExceeded';
export const PAUSED = 'DeploymentPaused';
export const RESUMED = 'DeploymentResumed';

function timestamp(now: number): string {
  return new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function newCondition(type: string, status: string, reason: string, message: string, now: number): Condition {
  const t = timestamp(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function conditionsOf(status: Record<string, unknown>): Condition[] {
  return Array.isArray(status.conditions) ? (status.conditions.filter(isObject) as Condition[]) : [];
}

export function getCondition(status: Record<string, unknown>, type: string): Condition | undefined {
  return conditionsOf(status).find((c) => c.type === type);
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  const kept = conditionsOf(status).filter((c) => c.type !== type);
  if (kept.length > 0) status.conditions = kept;
  else delete status.conditions;
}

/**
 * SetDeploymentCondition (R12.62): the same status and reason change nothing; otherwise the condition is replaced
 * and appended, keeping its lastTransitionTime when only the reason changed.
 */
export function setCondition(status: DeploymentStatus, condition: Condition): void {
  const current = getCondition(status, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current !== undefined && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...conditionsOf(status).filter((c) => c.type !== condition.type), next];
}

/** calculateStatus (R12.60, R12.61): counters over every ReplicaSet, and the Available condition. */
export function calculateStatus(d: KubeObject, all: readonly KubeObject[], newRS: KubeObject | undefined, now: number): DeploymentStatus {
  const available = sumOf(all, (rs) => statusCount(rs, 'availableReplicas'));
  const unavailable = Math.max(0, sumOf(all, replicasOf) - available);
  const counters: Record<string, number> = {
    observedGeneration: numberOr(d.metadata.generation, 0),
    replicas: sumOf(all, (rs) => statusCount(rs, 'replicas')),
    updatedReplicas: newRS === undefined ? 0 : statusCount(newRS, 'replicas'),
    readyReplicas: sumOf(all, (rs) => statusCount(rs, 'readyReplicas')),
    availableReplicas: available,
    unavailableReplicas: unavailable,
  };
  const status: DeploymentStatus = {};
  // Zero counters are omitted, as their omitempty tags do (R12.8).
  for (const [k, v] of Object.entries(counters)) if (v !== 0) status[k] = v;
  const old = statusOf(d);
  if (typeof old.collisionCount === 'number') status.collisionCount = old.collisionCount;
  const conditions = conditionsOf(old);
  if (conditions.length > 0) status.conditions = conditions;
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setCondition(status, newCondition(AVAILABLE, 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now));
  } else {
    setCondition(
      status,
      newCondition(AVAILABLE, 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', now),
    );
  }
  return status;
}

/** DeploymentComplete (R12.65). */
export function isComplete(d: KubeObject, status: Record<string, unknown>): boolean {
  const replicas = replicasOf(d);
  return (
    numberOr(status.updatedReplicas, 0) === replicas &&
    numberOr(status.replicas, 0) === replicas &&
    numberOr(status.availableReplicas, 0) === replicas &&
    numberOr(status.observedGeneration, 0) >= numberOr(d.metadata.generation, 0)
  );
}

/** DeploymentProgressing: more updated, ready or available replicas, or fewer old ones, than the stored status. */
export function isProgressing(d: KubeObject, next: Record<string, unknown>): boolean {
  const old = statusOf(d);
  const count = (s: Record<string, unknown>, f: string): number => numberOr(s[f], 0);
  const oldOld = count(old, 'replicas') - count(old, 'updatedReplicas');
  const newOld = count(next, 'replicas') - count(next, 'updatedReplicas');
  return (
    count(next, 'updatedReplicas') > count(old, 'updatedReplicas') ||
    newOld < oldOld ||
    count(next, 'readyReplicas') > count(old, 'readyReplicas') ||
    count(next, 'availableReplicas') > count(old, 'availableReplicas')
  );
}

/** When the progress deadline of the current rollout passes (ms since the epoch), if it is being tracked. */
export function progressDeadline(d: KubeObject, status: Record<string, unknown>): number | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const condition = getCondition(status, PROGRESSING);
  if (condition === undefined || condition.reason === NEW_RS_AVAILABLE || condition.reason === TIMED_OUT) return undefined;
  const from = Date.parse(String(condition.lastUpdateTime ?? ''));
  if (Number.isNaN(from)) return undefined;
  return from + numberOr(specOf(d).progressDeadlineSeconds, 0) * 1000;
}

/** DeploymentTimedOut. */
export function isTimedOut(d: KubeObject, status: Record<string, unknown>, now: number): boolean {
  if (getCondition(status, PROGRESSING)?.reason === TIMED_OUT) return hasProgressDeadline(d);
  const deadline = progressDeadline(d, status);
  return deadline !== undefined && deadline < now;
}

/** Status equality as a client sees it. */
export function sameStatus(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
