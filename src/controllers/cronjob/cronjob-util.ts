import { isObject, type KubeObject } from '../../api/types.js';

export type Obj = Record<string, unknown>;
export const specOf = (obj: KubeObject): Obj => (isObject(obj.spec) ? obj.spec : {});
export const statusOf = (obj: KubeObject): Obj => (isObject(obj.status) ? obj.status : {});

/** `Complete` or `Failed` when that condition of the Job is True (getFinishedStatus). */
export function finishedType(job: KubeObject): 'Complete' | 'Failed' | undefined {
  const conditions = statusOf(job).conditions;
  if (!Array.isArray(conditions)) return undefined;
  for (const c of conditions) {
    if (isObject(c) && (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/** The ObjectReference status.active holds (ref.GetReference). */
export function objectReference(job: KubeObject): Obj {
  return {
    kind: 'Job',
    namespace: job.metadata.namespace,
    name: job.metadata.name,
    uid: job.metadata.uid,
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata.resourceVersion,
  };
}

/** byJobStartTime: started Jobs by start time, then the ones not started; ties by name. */
function byStartTime(a: KubeObject, b: KubeObject): number {
  const sa = statusOf(a).startTime;
  const sb = statusOf(b).startTime;
  if (typeof sa !== 'string' && typeof sb === 'string') return 1;
  if (typeof sa === 'string' && typeof sb !== 'string') return -1;
  if (typeof sa === 'string' && typeof sb === 'string' && sa !== sb) return Date.parse(sa) - Date.parse(sb);
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** The finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit, oldest first (removeOldestJobs). */
export function historyToDelete(cronJob: KubeObject, jobs: readonly KubeObject[]): KubeObject[] {
  const spec = specOf(cronJob);
  const doomed: KubeObject[] = [];
  for (const [type, limit] of [
    ['Complete', spec.successfulJobsHistoryLimit],
    ['Failed', spec.failedJobsHistoryLimit],
  ] as const) {
    if (typeof limit !== 'number') continue;
    const finished = jobs.filter((job) => finishedType(job) === type && job.metadata.deletionTimestamp === undefined).sort(byStartTime);
    doomed.push(...finished.slice(0, Math.max(0, finished.length - limit)));
  }
  return doomed;
}
