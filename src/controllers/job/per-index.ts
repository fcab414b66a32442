import type { KubeObject } from '../../api/types.js';
import { podPhase } from '../workloads/pods.js';
import { parseIndexes } from './indexes.js';
import { completionIndexOf, INDEX_FAILURE_COUNT, type Obj, specOf, statusOf } from './job-pods.js';

export function hasBackoffLimitPerIndex(job: KubeObject): boolean {
  return specOf(job).completionMode === 'Indexed' && typeof specOf(job).backoffLimitPerIndex === 'number';
}

function failureCountOf(pod: KubeObject): number {
  const raw = pod.metadata.annotations?.[INDEX_FAILURE_COUNT];
  return raw !== undefined && /^[0-9]+$/.test(raw) ? Number(raw) : 0;
}

/** For each index, the failures so far: one more than the count carried by its latest failed pod. */
export function indexFailureCounts(pods: readonly KubeObject[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const pod of pods) {
    const index = completionIndexOf(pod);
    if (index === undefined || podPhase(pod) !== 'Failed') continue;
    counts.set(index, Math.max(counts.get(index) ?? 0, failureCountOf(pod) + 1));
  }
  return counts;
}

/**
 * calculateFailedIndexes: the recorded failed indexes plus those of pods failing now whose index has used up
 * backoffLimitPerIndex or that a FailIndex rule matched.
 */
export function failedIndexes(job: KubeObject, failing: readonly KubeObject[], failIndex: readonly KubeObject[]): Set<number> {
  const completions = typeof specOf(job).completions === 'number' ? (specOf(job).completions as number) : 0;
  const status: Obj = statusOf(job);
  const failed = parseIndexes(typeof status.failedIndexes === 'string' ? status.failedIndexes : '', completions);
  const limit = specOf(job).backoffLimitPerIndex as number;
  for (const pod of failing) {
    const index = completionIndexOf(pod);
    if (index === undefined || index >= completions) continue;
    if (failIndex.includes(pod) || failureCountOf(pod) + 1 > limit) failed.add(index);
  }
  return failed;
}
