import { isObject, type KubeObject } from '../../api/types.js';
import { type Obj, statusOf } from './job-pods.js';

export const COMPLETE = 'Complete';
export const FAILED = 'Failed';
export const FAILURE_TARGET = 'FailureTarget';
export const SUCCESS_CRITERIA_MET = 'SuccessCriteriaMet';
export const SUSPENDED = 'Suspended';

export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function conditionsOf(job: KubeObject): Obj[] {
  const conditions = statusOf(job).conditions;
  return Array.isArray(conditions) ? conditions.filter(isObject) : [];
}

export function findCondition(conditions: readonly Obj[], type: string): Obj | undefined {
  return conditions.find((c) => c.type === type && c.status === 'True');
}

/** IsJobFinished: a Complete or Failed condition is True. */
export function isJobFinished(job: KubeObject): boolean {
  const conditions = conditionsOf(job);
  return findCondition(conditions, COMPLETE) !== undefined || findCondition(conditions, FAILED) !== undefined;
}

export function newCondition(type: string, status: 'True' | 'False', reason: string, message: string, now: number): Obj {
  const at = rfc3339(now);
  return { type, status, lastProbeTime: at, lastTransitionTime: at, reason, message };
}

/**
 * Sets a condition (ensureJobConditionStatus): an existing one of the type is replaced only when its status,
 * reason or message changes, keeping its transition time when only reason or message do.
 */
export function withCondition(conditions: readonly Obj[], next: Obj): Obj[] {
  const index = conditions.findIndex((c) => c.type === next.type);
  if (index === -1) return [...conditions, next];
  const old = conditions[index] as Obj;
  if (old.status === next.status && old.reason === next.reason && old.message === next.message) return [...conditions];
  const updated = old.status === next.status ? { ...next, lastTransitionTime: old.lastTransitionTime } : next;
  return conditions.map((c, i) => (i === index ? updated : c));
}
