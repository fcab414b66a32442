import type { KubeObject } from '../../api/types.js';
import { podsToDelete } from '../workloads/pod-ranking.js';
import { isPodActive, numberOr } from '../workloads/pods.js';
import { completionIndexOf, isIndexed, isTerminal, onlyReplaceFailedPods, specOf } from './job-pods.js';

/** MaxPodCreateDeletePerSync (R12.27). */
const MAX_PER_SYNC = 500;

/** What manageJob does this sync: pods to create (their completion index for Indexed Jobs) or pods to delete. */
export interface PodPlan {
  readonly create: (number | undefined)[];
  readonly remove: KubeObject[];
}

export interface PlanInput {
  readonly job: KubeObject;
  readonly pods: readonly KubeObject[];
  /** Successes counted so far (Indexed: completed indexes below completions). */
  readonly succeeded: number;
  readonly completedIndexes: ReadonlySet<number>;
  /** Indexes failed for good (backoffLimitPerIndex): neither kept nor recreated. */
  readonly failedIndexes: ReadonlySet<number>;
  readonly now: number;
}

/** The active pods manageJob wants (R12.102). */
function wantedActive(job: KubeObject, active: number, succeeded: number): number {
  const spec = specOf(job);
  const parallelism = numberOr(spec.parallelism, 1);
  // Without completions the first success stops new pods; those still running are left to finish.
  if (typeof spec.completions !== 'number') return succeeded > 0 ? active : parallelism;
  return Math.min(parallelism, Math.max(0, spec.completions - succeeded));
}

/**
 * Indexed pods that must go whatever the count: a second active pod for one index, or a pod whose index is
 * missing, out of range or already completed (appendDuplicatedIndexPodsForRemoval).
 */
function invalidIndexedPods(active: readonly KubeObject[], completions: number, done: ReadonlySet<number>): KubeObject[] {
  const seen = new Set<number>();
  const invalid: KubeObject[] = [];
  for (const pod of active) {
    const index = completionIndexOf(pod);
    if (index === undefined || index >= completions || done.has(index) || seen.has(index)) invalid.push(pod);
    else seen.add(index);
  }
  return invalid;
}

export function planPods(input: PlanInput): PodPlan {
  const { job, now } = input;
  const active = input.pods.filter(isPodActive);
  const terminating = input.pods.filter((p) => p.metadata.deletionTimestamp !== undefined && !isTerminal(p));
  // Failed indexes will never complete: they leave the count of wanted pods (Indexed only).
  const want = Math.max(0, wantedActive(job, active.length, input.succeeded + input.failedIndexes.size));
  const completions = numberOr(specOf(job).completions, 0);
  const done = new Set([...input.completedIndexes, ...input.failedIndexes]);
  const invalid = isIndexed(job) ? invalidIndexedPods(active, completions, done) : [];
  const valid = active.filter((p) => !invalid.includes(p));
  const excess = Math.max(0, valid.length - want);
  if (invalid.length > 0 || excess > 0) {
    const remove = [...invalid, ...podsToDelete(valid, active, excess, now).slice(0, excess)];
    return { create: [], remove: remove.slice(0, MAX_PER_SYNC) };
  }
  // Terminating pods still hold their place when only failed pods are replaced (R12.103).
  const holding = onlyReplaceFailedPods(job) ? terminating : [];
  const missing = Math.min(MAX_PER_SYNC, want - valid.length - holding.length);
  if (missing <= 0) return { create: [], remove: [] };
  if (!isIndexed(job)) return { create: Array.from({ length: missing }, () => undefined), remove: [] };
  const taken = new Set<number>();
  for (const pod of [...valid, ...holding]) {
    const index = completionIndexOf(pod);
    if (index !== undefined) taken.add(index);
  }
  const create: number[] = [];
  for (let i = 0; i < completions && create.length < missing; i++) {
    if (!taken.has(i) && !done.has(i)) create.push(i);
  }
  return { create, remove: [] };
}
