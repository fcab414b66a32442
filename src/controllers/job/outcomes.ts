import type { KubeObject } from '../../api/types.js';
import { podPhase } from '../workloads/pods.js';
import { completionIndexOf, hasTrackingFinalizer, isPodFailed, isTerminal } from './job-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

/** At most this many pods are accounted per sync (MaxUncountedPods / MaxPodCreateDeletePerSync, R12.107). */
export const MAX_UNCOUNTED = 500;

/** What the finished pods of one sync amount to, before any write. */
export interface Outcomes {
  /** Pods to record in uncountedTerminatedPods now. */
  readonly succeeded: KubeObject[];
  readonly failed: KubeObject[];
  /** Pods whose finalizer goes without counting: failures a podFailurePolicy Ignore rule matched. */
  readonly ignored: KubeObject[];
  /** Failures a FailIndex rule matched (their index fails at once under backoffLimitPerIndex). */
  readonly failIndex: KubeObject[];
  /** The first FailJob rule a new failure matched (its message), if any. */
  readonly failJob?: string;
}

export interface OutcomeInput {
  readonly job: KubeObject;
  readonly pods: readonly KubeObject[];
  /** Uids already in status.uncountedTerminatedPods. */
  readonly uncounted: ReadonlySet<string>;
  /** Uids whose finalizer this controller removed and the cache may still show. */
  readonly released: ReadonlySet<string>;
  /** The Job is failing (FailureTarget): every pod that is not Succeeded and is terminating counts as failed. */
  readonly failing: boolean;
  readonly completions?: number;
}

/**
 * Sorts the pods that finished since the last count (R12.106): Succeeded ones; Failed ones, or terminating ones
 * when the Job replaces terminating pods or is failing; failures go through the podFailurePolicy first.
 */
export function newOutcomes(input: OutcomeInput): Outcomes {
  const { job, failing } = input;
  const succeeded: KubeObject[] = [];
  const failed: KubeObject[] = [];
  const ignored: KubeObject[] = [];
  const failIndex: KubeObject[] = [];
  let failJob: string | undefined;
  for (const pod of input.pods) {
    if (succeeded.length + failed.length + ignored.length >= MAX_UNCOUNTED) break;
    const uid = pod.metadata.uid ?? '';
    if (!hasTrackingFinalizer(pod) || input.uncounted.has(uid) || input.released.has(uid)) continue;
    if (podPhase(pod) === 'Succeeded') {
      // An Indexed pod counts only for an index inside completions.
      const index = completionIndexOf(pod);
      if (input.completions === undefined || index === undefined || index < input.completions) succeeded.push(pod);
      else ignored.push(pod);
      continue;
    }
    const terminatingWhileFailing = failing && pod.metadata.deletionTimestamp !== undefined;
    if (!isPodFailed(job, pod) && !terminatingWhileFailing) continue;
    const verdict = isTerminal(pod) ? matchPodFailurePolicy(job, pod) : undefined;
    if (verdict?.action === 'Ignore') {
      ignored.push(pod);
      continue;
    }
    if (verdict?.action === 'FailJob') failJob ??= verdict.message;
    if (verdict?.action === 'FailIndex') failIndex.push(pod);
    failed.push(pod);
  }
  return { succeeded, failed, ignored, failIndex, ...(failJob === undefined ? {} : { failJob }) };
}
