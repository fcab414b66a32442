import { isObject, type KubeObject } from '../../api/types.js';
import { isPodActive, numberOr, podPhase } from '../workloads/pods.js';
import { FAILURE_TARGET, newCondition, SUCCESS_CRITERIA_MET } from './conditions.js';
import { parseIndexes } from './indexes.js';
import { type Obj, specOf, statusOf } from './job-pods.js';

/** spec.backoffLimit's default (R12.7). */
const DEFAULT_BACKOFF_LIMIT = 6;

const objects = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** pastBackoffLimitOnFailure: restarts of pending and running pods count against the limit under OnFailure. */
function pastBackoffLimitOnFailure(job: KubeObject, pods: readonly KubeObject[], limit: number): boolean {
  const template = isObject(specOf(job).template) ? (specOf(job).template as Obj) : {};
  if (!isObject(template.spec) || template.spec.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = podPhase(pod);
    if (phase !== 'Pending' && phase !== 'Running') continue;
    const status = statusOf(pod);
    for (const s of [...objects(status.initContainerStatuses), ...objects(status.containerStatuses)])
      restarts += numberOr(s.restartCount, 0);
  }
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** When activeDeadlineSeconds runs out (ms), if it is set and the Job has started. */
export function activeDeadlineMs(job: KubeObject): number | undefined {
  const seconds = specOf(job).activeDeadlineSeconds;
  const start = statusOf(job).startTime;
  if (typeof seconds !== 'number' || typeof start !== 'string') return undefined;
  return Date.parse(start) + seconds * 1000;
}

export interface FailureInput {
  readonly job: KubeObject;
  readonly pods: readonly KubeObject[];
  /** Failures counted so far, uncounted and new ones included. */
  readonly failed: number;
  readonly failJob?: string;
  /** Under backoffLimitPerIndex: the failed indexes and the completed ones. */
  readonly perIndex?: { readonly failed: number; readonly completed: number };
  readonly now: number;
}

/** The FailureTarget condition the Job earns now, checked in upstream's order (R12.111), or undefined. */
export function failureCondition(input: FailureInput): Obj | undefined {
  const { job, now } = input;
  if (input.failJob !== undefined) return newCondition(FAILURE_TARGET, 'True', 'PodFailurePolicy', input.failJob, now);
  const limit = numberOr(specOf(job).backoffLimit, DEFAULT_BACKOFF_LIMIT);
  if (input.failed > limit || pastBackoffLimitOnFailure(job, input.pods, limit)) {
    return newCondition(FAILURE_TARGET, 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', now);
  }
  const deadline = activeDeadlineMs(job);
  if (specOf(job).suspend !== true && deadline !== undefined && now >= deadline) {
    return newCondition(FAILURE_TARGET, 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline', now);
  }
  const perIndex = input.perIndex;
  if (perIndex === undefined) return undefined;
  const maxFailed = specOf(job).maxFailedIndexes;
  if (typeof maxFailed === 'number' && perIndex.failed > maxFailed) {
    const message = 'Job has exceeded the specified maximal number of failed indexes';
    return newCondition(FAILURE_TARGET, 'True', 'MaxFailedIndexesExceeded', message, now);
  }
  if (perIndex.failed > 0 && perIndex.failed + perIndex.completed >= numberOr(specOf(job).completions, 0)) {
    return newCondition(FAILURE_TARGET, 'True', 'FailedIndexes', 'Job has failed indexes', now);
  }
  return undefined;
}

export interface SuccessInput {
  readonly job: KubeObject;
  readonly pods: readonly KubeObject[];
  readonly succeeded: number;
  readonly completedIndexes: ReadonlySet<number>;
  readonly now: number;
}

/** The index of the first successPolicy rule the completed indexes satisfy (matchSuccessPolicy). */
function matchedSuccessRule(job: KubeObject, completed: ReadonlySet<number>): number | undefined {
  const policy = specOf(job).successPolicy;
  if (!isObject(policy)) return undefined;
  const completions = numberOr(specOf(job).completions, 0);
  for (const [index, rule] of objects(policy.rules).entries()) {
    const wanted = typeof rule.succeededIndexes === 'string' ? parseIndexes(rule.succeededIndexes, completions) : undefined;
    const inScope = wanted === undefined ? completed.size : [...wanted].filter((i) => completed.has(i)).length;
    const count = typeof rule.succeededCount === 'number' ? rule.succeededCount : wanted?.size;
    if (count !== undefined && inScope >= count) return index;
  }
  return undefined;
}

/** The SuccessCriteriaMet condition the Job earns now (R12.110), or undefined. */
export function successCondition(input: SuccessInput): Obj | undefined {
  const { job, now } = input;
  const rule = specOf(job).completionMode === 'Indexed' ? matchedSuccessRule(job, input.completedIndexes) : undefined;
  if (rule !== undefined) {
    return newCondition(SUCCESS_CRITERIA_MET, 'True', 'SuccessPolicy', `Matched rules at index ${rule}`, now);
  }
  const active = input.pods.filter(isPodActive).length;
  const completions = specOf(job).completions;
  const done = typeof completions === 'number' ? input.succeeded >= completions : input.succeeded > 0;
  if (!done || active > 0) return undefined;
  return newCondition(SUCCESS_CRITERIA_MET, 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', now);
}
