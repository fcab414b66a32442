import type { KubeObject } from '../../api/types.js';
import { formatIndexes } from './indexes.js';
import { type Obj, statusOf } from './job-pods.js';

export interface StatusFields {
  readonly conditions: readonly Obj[];
  readonly startTime?: string;
  readonly completionTime?: string;
  readonly active: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly terminating: number;
  readonly ready: number;
  /** Indexed Jobs only. */
  readonly completedIndexes?: ReadonlySet<number>;
  /** Indexed Jobs with backoffLimitPerIndex only (written even when empty). */
  readonly failedIndexes?: ReadonlySet<number>;
  readonly uncountedSucceeded: readonly string[];
  readonly uncountedFailed: readonly string[];
}

/**
 * A JobStatus in the API's field order: zero counters omitted, `ready` and `terminating` always written and
 * `uncountedTerminatedPods` always present, as the Job controller writes them (R12.8).
 */
export function buildStatus(job: KubeObject, f: StatusFields): Obj {
  const old = statusOf(job);
  const status: Obj = {};
  if (f.conditions.length > 0) status.conditions = f.conditions;
  if (f.startTime !== undefined) status.startTime = f.startTime;
  if (f.completionTime !== undefined) status.completionTime = f.completionTime;
  if (f.active > 0) status.active = f.active;
  if (f.succeeded > 0) status.succeeded = f.succeeded;
  if (f.failed > 0) status.failed = f.failed;
  status.terminating = f.terminating;
  const indexes = f.completedIndexes === undefined ? '' : formatIndexes(f.completedIndexes);
  if (indexes !== '') status.completedIndexes = indexes;
  if (f.failedIndexes !== undefined) status.failedIndexes = formatIndexes(f.failedIndexes);
  else if (old.failedIndexes !== undefined) status.failedIndexes = old.failedIndexes;
  const uncounted: Obj = {};
  if (f.uncountedSucceeded.length > 0) uncounted.succeeded = [...f.uncountedSucceeded];
  if (f.uncountedFailed.length > 0) uncounted.failed = [...f.uncountedFailed];
  status.uncountedTerminatedPods = uncounted;
  status.ready = f.ready;
  return status;
}

export function sameStatus(job: KubeObject, status: Obj): boolean {
  return JSON.stringify(statusOf(job)) === JSON.stringify(status);
}
