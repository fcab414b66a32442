import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { intAt, nonNegative, objectAt, sameValue } from '../apps-v1/workload-validation.js';
import { countIndexes } from './job-policy-validation.js';

/**
 * ValidateJobUpdateStatus with the options the job status strategy uses while JobManagedBy is on: besides the
 * counts, the status transitions an external controller could get wrong are refused, each rule only when the
 * status fields it reads changed. Rules later releases add (Failed only after FailureTarget, Complete only after
 * SuccessCriteriaMet, ready ≤ active, no terminating pods once finished) are not applied.
 */

type Obj = Record<string, unknown>;

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

function conditionTrue(status: Obj, type: string): boolean {
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  return conditions.some((c) => isObject(c) && c.type === type && c.status === 'True');
}

/** The job-level facts the rules read. */
interface JobFacts {
  readonly complete: boolean;
  readonly failed: boolean;
  readonly failureTarget: boolean;
  readonly successCriteriaMet: boolean;
  readonly finished: boolean;
}

function factsOf(status: Obj): JobFacts {
  const complete = conditionTrue(status, 'Complete');
  const failed = conditionTrue(status, 'Failed');
  return {
    complete,
    failed,
    failureTarget: conditionTrue(status, 'FailureTarget'),
    successCriteriaMet: conditionTrue(status, 'SuccessCriteriaMet'),
    finished: complete || failed,
  };
}

/** field.Invalid with field.OmitValueType on status.conditions. */
const conditionsError = (detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field: 'status.conditions',
  detail,
  hasValue: false,
});

/** metav1.Time as field.Error prints it: through time.Time's String(). */
function goTime(value: unknown): GoLiteral {
  const date = new Date(typeof value === 'string' ? value : 0);
  const iso = Number.isNaN(date.getTime()) ? '0001-01-01T00:00:00' : date.toISOString().slice(0, 19);
  return new GoLiteral(`${iso.replace('T', ' ')} +0000 UTC`);
}

function goUidList(values: unknown): string {
  return Array.isArray(values) ? `[]types.UID{${values.map((v) => goQuote(String(v))).join(', ')}}` : '[]types.UID(nil)';
}

function validateUncounted(uncounted: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed']) {
    const uids = Array.isArray(uncounted[kind]) ? (uncounted[kind] as unknown[]) : [];
    uids.forEach((uid, index) => {
      const at = `status.uncountedTerminatedPods.${kind}[${index}]`;
      const value = String(uid ?? '');
      if (value === '') errors.push(fieldError.invalid(at, value, 'must not be empty'));
      else if (seen.has(value)) errors.push(fieldError.duplicate(at, value));
      else seen.add(value);
    });
  }
  return errors;
}

/** Parsed index intervals of a list; a bad interval is skipped (the format check reports it). */
function intervals(indexes: string, completions: number): [number, number][] {
  if (indexes === '') return [];
  const parsed: [number, number][] = [];
  for (const part of indexes.split(',')) {
    try {
      countIndexes(part, completions);
      const [x, y] = part.split('-').map((n) => Number.parseInt(n, 10));
      parsed.push([x ?? 0, y ?? x ?? 0]);
    } catch {
      // reported by the format rule
    }
  }
  return parsed;
}

/** validateFailedIndexesNotOverlapCompleted: the first index both lists name. */
function overlap(completed: string, failed: string, completions: number): number | undefined {
  const done = intervals(completed, completions);
  const lost = intervals(failed, completions);
  let i = 0;
  let j = 0;
  while (i < done.length && j < lost.length) {
    const [cx, cy] = done[i] ?? [0, 0];
    const [fx, fy] = lost[j] ?? [0, 0];
    if (cx <= fy && fx <= cy) return Math.max(cx, fx);
    if (cx <= fx) i++;
    else j++;
  }
  return undefined;
}

function validateIndexes(spec: Obj, status: Obj, oldStatus: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const completed = typeof status.completedIndexes === 'string' ? status.completedIndexes : '';
  const failed = typeof status.failedIndexes === 'string' ? status.failedIndexes : undefined;
  const completedChanged = completed !== (typeof oldStatus.completedIndexes === 'string' ? oldStatus.completedIndexes : '');
  const failedChanged = !sameValue(status.failedIndexes ?? null, oldStatus.failedIndexes ?? null);
  const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
  const perIndex = isSet(spec.backoffLimitPerIndex);
  const parseError = (indexes: string, field: string): FieldError[] => {
    try {
      countIndexes(indexes, completions ?? 0);
      return [];
    } catch (err) {
      return [fieldError.invalid(`status.${field}`, indexes, `error parsing ${field}: ${(err as Error).message}`)];
    }
  };
  if (completedChanged && completions !== undefined) errors.push(...parseError(completed, 'completedIndexes'));
  if (failedChanged && completions !== undefined && perIndex && failed !== undefined) errors.push(...parseError(failed, 'failedIndexes'));
  if (completedChanged && completed !== '' && spec.completionMode !== 'Indexed') {
    errors.push(
      fieldError.invalid('status.completedIndexes', completed, 'cannot set non-empty completedIndexes when non-indexed completion mode'),
    );
  }
  if (failedChanged && !perIndex && failed !== undefined) {
    errors.push(fieldError.invalid('status.failedIndexes', failed, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if ((failedChanged || completedChanged) && completions !== undefined && failed !== undefined) {
    const at = overlap(completed, failed, completions);
    if (at !== undefined)
      errors.push(fieldError.invalid('status.failedIndexes', failed, `failedIndexes and completedIndexes overlap at index: ${at}`));
  }
  return errors;
}

/** validateJobStatus: counts, then the consistency rules whose fields changed. */
function validateJobStatus(spec: Obj, status: Obj, oldStatus: Obj): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['active', 'succeeded', 'failed', 'ready', 'terminating'])
    errors.push(...nonNegative(status[field], `status.${field}`));
  const uncounted = objectAt(status.uncountedTerminatedPods);
  errors.push(...validateUncounted(uncounted));
  const now = factsOf(status);
  const before = factsOf(oldStatus);
  const changed = (field: string): boolean => !sameValue(status[field] ?? null, oldStatus[field] ?? null);
  const completeChanged = now.complete !== before.complete;
  const failedChanged = now.failed !== before.failed;
  const finishedChanged = now.finished !== before.finished;
  const { startTime, completionTime } = status;
  if ((completeChanged || failedChanged) && now.complete && now.failed)
    errors.push(conditionsError('cannot set Complete=True and Failed=true conditions'));
  if ((completeChanged || now.failureTarget !== before.failureTarget) && now.complete && now.failureTarget) {
    errors.push(conditionsError('cannot set Complete=True and FailureTarget=true conditions'));
  }
  if (completeChanged || changed('completionTime')) {
    if (isSet(completionTime) && !now.complete) {
      errors.push(
        fieldError.invalid(
          'status.completionTime',
          goTime(completionTime),
          'cannot set completionTime when there is no Complete=True condition',
        ),
      );
    }
    if (!isSet(completionTime) && now.complete)
      errors.push(fieldError.required('status.completionTime', 'completionTime is required for Complete jobs'));
  }
  if ((changed('startTime') || changed('completionTime')) && typeof startTime === 'string' && typeof completionTime === 'string') {
    if (Date.parse(completionTime) < Date.parse(startTime)) {
      errors.push(fieldError.invalid('status.completionTime', goTime(completionTime), 'completionTime cannot be set before startTime'));
    }
  }
  const active = intAt(status, 'active');
  if ((finishedChanged || changed('active')) && active > 0 && now.finished) {
    errors.push(fieldError.invalid('status.active', active, 'active>0 is invalid for finished job'));
  }
  if ((finishedChanged || changed('startTime')) && !isSet(startTime) && now.finished) {
    errors.push(fieldError.required('status.startTime', 'startTime is required for finished job'));
  }
  const uncountedCount =
    (Array.isArray(uncounted.succeeded) ? uncounted.succeeded.length : 0) + (Array.isArray(uncounted.failed) ? uncounted.failed.length : 0);
  if ((finishedChanged || changed('uncountedTerminatedPods')) && now.finished && uncountedCount > 0) {
    const shown = `batch.UncountedTerminatedPods{Succeeded:${goUidList(uncounted.succeeded)}, Failed:${goUidList(uncounted.failed)}}`;
    errors.push(
      fieldError.invalid(
        'status.uncountedTerminatedPods',
        new GoLiteral(shown),
        'uncountedTerminatedPods needs to be empty for finished job',
      ),
    );
  }
  errors.push(...validateIndexes(spec, status, oldStatus));
  if (now.successCriteriaMet && now.failed) errors.push(conditionsError('cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (now.successCriteriaMet && now.failureTarget)
    errors.push(conditionsError('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (isSet(spec.successPolicy) && !now.successCriteriaMet && now.complete) {
    errors.push(conditionsError('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  return errors;
}

/** ValidateJobStatusUpdate. */
export function validateJobStatusUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const status = objectAt(next.status);
  const oldStatus = objectAt(old.status);
  const errors = validateJobStatus(spec, status, oldStatus);
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(oldStatus, type) && !conditionTrue(status, type))
      errors.push(conditionsError(`cannot disable the terminal ${type}=True condition`));
  }
  if (intAt(status, 'failed') < intAt(oldStatus, 'failed')) {
    errors.push(fieldError.invalid('status.failed', intAt(status, 'failed'), 'cannot decrease the failed counter'));
  }
  // Elastic Indexed Jobs (completions == parallelism) may scale down, losing succeeded pods.
  const scalable = spec.completionMode === 'Indexed' && isSet(spec.completions) && spec.completions === spec.parallelism;
  if (!scalable && intAt(status, 'succeeded') < intAt(oldStatus, 'succeeded')) {
    errors.push(fieldError.invalid('status.succeeded', intAt(status, 'succeeded'), 'cannot decrease the succeeded counter'));
  }
  const { completionTime, startTime } = status;
  if (isSet(completionTime) && isSet(oldStatus.completionTime) && completionTime !== oldStatus.completionTime) {
    errors.push(fieldError.invalid('status.completionTime', goTime(completionTime), 'completionTime cannot be mutated'));
  }
  if (isSet(oldStatus.startTime) && startTime !== oldStatus.startTime && spec.suspend !== true) {
    errors.push(fieldError.required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  }
  const before = factsOf(oldStatus);
  const now = factsOf(status);
  if (before.successCriteriaMet && !now.successCriteriaMet)
    errors.push(conditionsError('cannot disable the SuccessCriteriaMet=True condition'));
  if (before.complete && !before.successCriteriaMet && now.successCriteriaMet) {
    errors.push(conditionsError('cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return errors;
}
