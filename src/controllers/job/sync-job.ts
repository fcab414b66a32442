import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import type { ItemResult } from '../../workqueue/worker.js';
import type { EventRecorder } from '../workloads/events.js';
import type { ControllerExpectations } from '../workloads/expectations.js';
import { isPodActive, isPodReady, numberOr } from '../workloads/pods.js';
import type { PodFailureBackoff } from './backoff.js';
import {
  COMPLETE,
  conditionsOf,
  FAILED,
  FAILURE_TARGET,
  findCondition,
  newCondition,
  rfc3339,
  SUCCESS_CRITERIA_MET,
  SUSPENDED,
  withCondition,
} from './conditions.js';
import { activeDeadlineMs, failureCondition, successCondition } from './criteria.js';
import { parseIndexes } from './indexes.js';
import { buildStatus, sameStatus } from './job-status.js';
import { completionIndexOf, hasTrackingFinalizer, isIndexed, isTerminal, type Obj, specOf, statusOf } from './job-pods.js';
import { newOutcomes } from './outcomes.js';
import { failedIndexes, hasBackoffLimitPerIndex, indexFailureCounts } from './per-index.js';
import { planPods } from './pod-plan.js';

/** What one Job sync needs from its controller: state kept across syncs and the API writes. */
export interface JobSyncContext {
  readonly key: string;
  readonly now: number;
  readonly expectations: ControllerExpectations;
  readonly backoff: PodFailureBackoff;
  readonly released: ReadonlySet<string>;
  readonly record: EventRecorder;
  createPod(job: KubeObject, index: number | undefined, failureCount: number | undefined): Promise<void>;
  deletePod(job: KubeObject, pod: KubeObject): Promise<void>;
  removeFinalizer(pod: KubeObject): Promise<void>;
  writeStatus(job: KubeObject, status: Obj): Promise<KubeObject>;
  createBatch(count: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }>;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Pods that hold the Job's place while their containers stop. */
const isTerminating = (pod: KubeObject): boolean => pod.metadata.deletionTimestamp !== undefined && !isTerminal(pod);

/** What manageJob changed: pods deleted this sync still terminate; a failed write is retried after the status. */
interface Managed {
  created: number;
  deleted: KubeObject[];
  error?: unknown;
  requeueAfterMs?: number;
}

async function removeActive(ctx: JobSyncContext, job: KubeObject, pods: readonly KubeObject[], keepFinalizers: boolean): Promise<Managed> {
  const managed: Managed = { created: 0, deleted: [] };
  if (pods.length === 0) return managed;
  ctx.expectations.expectDeletions(ctx.key, pods.map(objectKey));
  const results = await Promise.allSettled(
    pods.map(async (pod) => {
      // Pods the Job no longer wants are not failures: their finalizer goes first so nothing counts them (R12.102).
      if (!keepFinalizers && hasTrackingFinalizer(pod)) await ctx.removeFinalizer(pod);
      await ctx.deletePod(job, pod);
      managed.deleted.push(pod);
    }),
  );
  managed.error = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
  return managed;
}

/** manageJob for a running, unsuspended Job: create or delete toward the wanted active pods, after the back-off. */
async function manageJob(
  ctx: JobSyncContext,
  job: KubeObject,
  pods: readonly KubeObject[],
  succeeded: number,
  completed: Set<number>,
  failed: Set<number>,
) {
  if (!ctx.expectations.satisfied(ctx.key)) return { created: 0, deleted: [] };
  const plan = planPods({ job, pods, succeeded, completedIndexes: completed, failedIndexes: failed, now: ctx.now });
  if (plan.remove.length > 0) return removeActive(ctx, job, plan.remove, false);
  if (plan.create.length === 0) return { created: 0, deleted: [] };
  const wait = ctx.backoff.remainingMs(ctx.key, ctx.now);
  if (wait > 0) return { created: 0, deleted: [], requeueAfterMs: wait };
  const indexes = [...plan.create];
  const failures = hasBackoffLimitPerIndex(job) ? indexFailureCounts(pods) : undefined;
  ctx.expectations.expectCreations(ctx.key, indexes.length);
  const { successes, error } = await ctx.createBatch(indexes.length, () => {
    const index = indexes.shift();
    return ctx.createPod(job, index, failures === undefined || index === undefined ? undefined : (failures.get(index) ?? 0));
  });
  for (let skipped = plan.create.length - successes; skipped > 0; skipped--) ctx.expectations.creationObserved(ctx.key);
  return { created: successes, deleted: [], error };
}

/**
 * syncJob for a Job that is neither finished nor managed elsewhere, with its claimed pods: decide success or
 * failure, manage pods, then account finished pods in three steps (uncounted → finalizer removed → counted) and
 * add the terminal condition once nothing is terminating or uncounted (R12.102–R12.113).
 */
export async function syncJob(ctx: JobSyncContext, job: KubeObject, pods: readonly KubeObject[]): Promise<ItemResult | undefined> {
  const { now } = ctx;
  const spec = specOf(job);
  const status = statusOf(job);
  const indexed = isIndexed(job);
  const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
  const deleting = job.metadata.deletionTimestamp !== undefined;
  const oldUncounted = isObject(status.uncountedTerminatedPods) ? status.uncountedTerminatedPods : {};
  const uncountedSucceeded = strings(oldUncounted.succeeded);
  const uncountedFailed = strings(oldUncounted.failed);
  let conditions = conditionsOf(job);
  let finishing = findCondition(conditions, FAILURE_TARGET) ?? findCondition(conditions, SUCCESS_CRITERIA_MET);
  const outcomes = newOutcomes({
    job,
    pods,
    uncounted: new Set([...uncountedSucceeded, ...uncountedFailed]),
    released: ctx.released,
    failing: finishing?.type === FAILURE_TARGET,
    completions: indexed ? completions : undefined,
  });
  const byUid = new Map(pods.map((p) => [p.metadata.uid ?? '', p]));
  const indexesOf = (uids: readonly string[]): number[] =>
    uids
      .map((uid) => (byUid.has(uid) ? completionIndexOf(byUid.get(uid) as KubeObject) : undefined))
      .filter((i): i is number => i !== undefined && i < (completions ?? 0));
  const newSucceeded = outcomes.succeeded.map((p) => p.metadata.uid ?? '');
  const newFailed = outcomes.failed.map((p) => p.metadata.uid ?? '');
  // Indexed: the counted indexes grow only as finalizers go; decisions use them with the uncounted ones.
  const counted = indexed
    ? parseIndexes(typeof status.completedIndexes === 'string' ? status.completedIndexes : '', completions ?? 0)
    : new Set<number>();
  const completed = new Set([...counted, ...indexesOf(uncountedSucceeded), ...indexesOf(newSucceeded)]);
  const succeededSoFar = indexed ? completed.size : numberOr(status.succeeded, 0) + uncountedSucceeded.length + newSucceeded.length;
  const failedSoFar = numberOr(status.failed, 0) + uncountedFailed.length + newFailed.length;
  const perIndex = hasBackoffLimitPerIndex(job);
  const failedIdx = perIndex ? failedIndexes(job, outcomes.failed, outcomes.failIndex) : new Set<number>();
  if (finishing === undefined && !deleting) {
    const perIndexCounts = perIndex ? { failed: failedIdx.size, completed: completed.size } : undefined;
    finishing =
      failureCondition({ job, pods, failed: failedSoFar, failJob: outcomes.failJob, perIndex: perIndexCounts, now }) ??
      successCondition({ job, pods, succeeded: succeededSoFar, completedIndexes: completed, now });
    if (finishing !== undefined) conditions = withCondition(conditions, finishing);
  }

  let startTime = typeof status.startTime === 'string' ? status.startTime : undefined;
  const active = pods.filter(isPodActive);
  let managed: Managed = { created: 0, deleted: [] };
  let requeueAfterMs: number | undefined;
  if (deleting) {
    // A Job being deleted frees every pod it still holds (R12.108, R12.114); finished ones are counted below.
    const held = pods.filter((p) => hasTrackingFinalizer(p) && !isTerminal(p) && !outcomes.failed.includes(p));
    await Promise.all(held.map((pod) => ctx.removeFinalizer(pod)));
  } else if (finishing?.type === FAILURE_TARGET) {
    managed = await removeActive(ctx, job, active, true);
  } else if (finishing !== undefined) {
    if (finishing.reason === 'SuccessPolicy') managed = await removeActive(ctx, job, active, false);
  } else if (spec.suspend === true) {
    managed = await removeActive(ctx, job, active, false);
    if (findCondition(conditions, SUSPENDED) === undefined) {
      conditions = withCondition(conditions, newCondition(SUSPENDED, 'True', 'JobSuspended', 'Job suspended', now));
      ctx.record(job, 'Normal', 'Suspended', 'Job suspended');
    }
  } else {
    if (findCondition(conditions, SUSPENDED) !== undefined) {
      conditions = withCondition(conditions, newCondition(SUSPENDED, 'False', 'JobResumed', 'Job resumed', now));
      ctx.record(job, 'Normal', 'Resumed', 'Job resumed');
      // The deadline counts from the resumption (R12.113).
      startTime = rfc3339(now);
    }
    startTime ??= rfc3339(now);
    const deadline = activeDeadlineMs({ ...job, status: { ...status, startTime } });
    if (deadline !== undefined) requeueAfterMs = Math.max(0, deadline - now) + 1;
    managed = await manageJob(ctx, job, pods, succeededSoFar, completed, failedIdx);
    if (managed.requeueAfterMs !== undefined) requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, managed.requeueAfterMs);
  }

  const deletedUids = new Set(managed.deleted.map((p) => p.metadata.uid));
  const activeCount = active.filter((p) => !deletedUids.has(p.metadata.uid)).length + managed.created;
  const ready = active.filter((p) => !deletedUids.has(p.metadata.uid) && isPodReady(p)).length;
  const terminating = pods.filter(isTerminating).length + managed.deleted.length;
  let fields = {
    conditions,
    startTime,
    active: activeCount,
    succeeded: indexed ? counted.size : numberOr(status.succeeded, 0),
    failed: numberOr(status.failed, 0),
    terminating,
    ready,
    completedIndexes: indexed ? counted : undefined,
    failedIndexes: perIndex ? failedIdx : undefined,
    uncountedSucceeded: [...uncountedSucceeded, ...newSucceeded],
    uncountedFailed: [...uncountedFailed, ...newFailed],
  };
  let current = job;
  // Step 1: the newly finished pods are recorded as uncounted before their finalizers go.
  if (newSucceeded.length + newFailed.length > 0) current = await ctx.writeStatus(current, buildStatus(current, fields));
  // Step 2: finalizers go from every uncounted pod, and from failures a policy told to ignore.
  const countable = [...fields.uncountedSucceeded, ...fields.uncountedFailed];
  const releasing = [...countable.map((uid) => byUid.get(uid)), ...outcomes.ignored].filter(
    (p): p is KubeObject => p !== undefined && hasTrackingFinalizer(p) && !ctx.released.has(p.metadata.uid ?? ''),
  );
  const failedRelease = new Set<string>();
  const results = await Promise.allSettled(releasing.map((pod) => ctx.removeFinalizer(pod)));
  results.forEach((result, i) => {
    if (result.status === 'rejected') failedRelease.add(releasing[i]?.metadata.uid ?? '');
  });
  // Step 3: what lost its finalizer is counted.
  const released = (uids: string[]): string[] => uids.filter((uid) => !failedRelease.has(uid));
  const nowSucceeded = released(fields.uncountedSucceeded);
  const nowFailed = released(fields.uncountedFailed);
  for (const index of indexesOf(nowSucceeded)) counted.add(index);
  ctx.backoff.observe(ctx.key, outcomes.succeeded, outcomes.failed, now);
  const uncountedLeft = failedRelease.size;
  fields = {
    ...fields,
    succeeded: indexed ? counted.size : fields.succeeded + nowSucceeded.length,
    failed: fields.failed + nowFailed.length,
    completedIndexes: indexed ? counted : undefined,
    uncountedSucceeded: fields.uncountedSucceeded.filter((uid) => failedRelease.has(uid)),
    uncountedFailed: fields.uncountedFailed.filter((uid) => failedRelease.has(uid)),
  };
  let completionTime: string | undefined;
  if (finishing !== undefined && !deleting && uncountedLeft === 0 && terminating === 0 && activeCount === 0) {
    if (finishing.type === FAILURE_TARGET) {
      const reason = String(finishing.reason);
      const message = String(finishing.message);
      fields.conditions = withCondition(fields.conditions, newCondition(FAILED, 'True', reason, message, now));
      ctx.record(job, 'Warning', reason, message);
    } else {
      const complete = newCondition(COMPLETE, 'True', String(finishing.reason), String(finishing.message), now);
      fields.conditions = withCondition(fields.conditions, complete);
      completionTime = String(complete.lastTransitionTime);
      ctx.record(job, 'Normal', 'Completed', 'Job completed');
    }
  }
  const next = buildStatus(current, { ...fields, completionTime });
  if (!sameStatus(current, next)) await ctx.writeStatus(current, next);
  if (managed.error !== undefined) throw managed.error;
  if (failedRelease.size > 0) throw new Error(`removing the tracking finalizer of ${failedRelease.size} pod(s) failed`);
  return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
}
