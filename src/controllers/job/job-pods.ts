import { isObject, type KubeObject } from '../../api/types.js';
import { podFromTemplate, podPhase } from '../workloads/pods.js';

/** Keeps a finished pod visible until the Job controller has counted it (R12.107). */
export const TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** How many times a pod's index had failed before it was created (backoffLimitPerIndex). */
export const INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';

export type Obj = Record<string, unknown>;
export const specOf = (obj: KubeObject): Obj => (isObject(obj.spec) ? obj.spec : {});
export const statusOf = (obj: KubeObject): Obj => (isObject(obj.status) ? obj.status : {});

export function isIndexed(job: KubeObject): boolean {
  return specOf(job).completionMode === 'Indexed';
}

export function hasTrackingFinalizer(pod: KubeObject): boolean {
  return (pod.metadata.finalizers ?? []).includes(TRACKING_FINALIZER);
}

export function isTerminal(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The pod's completion index, from the annotation (the label is informative only); undefined when absent or bad. */
export function completionIndexOf(pod: KubeObject): number | undefined {
  const raw = pod.metadata.annotations?.[COMPLETION_INDEX] ?? pod.metadata.labels?.[COMPLETION_INDEX];
  if (raw === undefined || !/^(0|[1-9][0-9]*)$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * Only failed pods are replaced (and count as failed) under podReplacementPolicy Failed or a podFailurePolicy;
 * otherwise a terminating pod counts as failed at once (isPodFailed, R12.103, R12.106).
 */
export function onlyReplaceFailedPods(job: KubeObject): boolean {
  const spec = specOf(job);
  return spec.podReplacementPolicy === 'Failed' || isObject(spec.podFailurePolicy);
}

export function isPodFailed(job: KubeObject, pod: KubeObject): boolean {
  const phase = podPhase(pod);
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return pod.metadata.deletionTimestamp !== undefined && phase !== 'Succeeded';
}

/**
 * A new pod for the Job (R12.100): the template with the tracking finalizer and a controller reference; Indexed
 * pods also carry their index as annotation, label, hostname and JOB_COMPLETION_INDEX in every container.
 */
export function podForJob(job: KubeObject, index: number | undefined, failureCount?: number): KubeObject {
  const template = isObject(specOf(job).template) ? (specOf(job).template as Obj) : {};
  const pod = podFromTemplate(template, job);
  pod.metadata.finalizers = [...(pod.metadata.finalizers ?? []), TRACKING_FINALIZER];
  if (index === undefined) return pod;
  const name = job.metadata.name ?? '';
  pod.metadata.generateName = `${name}-${index}-`;
  pod.metadata.annotations = { ...pod.metadata.annotations, [COMPLETION_INDEX]: String(index) };
  // Under backoffLimitPerIndex every pod says how often its index failed before (R12.111).
  if (failureCount !== undefined) pod.metadata.annotations[INDEX_FAILURE_COUNT] = String(failureCount);
  pod.metadata.labels = { ...pod.metadata.labels, [COMPLETION_INDEX]: String(index) };
  const spec: Obj = isObject(pod.spec) ? pod.spec : {};
  spec.hostname = `${name}-${index}`;
  const indexEnv = {
    name: COMPLETION_INDEX_ENV,
    valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${COMPLETION_INDEX}']` } },
  };
  for (const field of ['initContainers', 'containers']) {
    const containers = spec[field];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      if (!isObject(container)) continue;
      const env = Array.isArray(container.env) ? container.env : [];
      if (!env.some((e) => isObject(e) && e.name === COMPLETION_INDEX_ENV)) container.env = [...env, indexEnv];
    }
  }
  pod.spec = spec;
  return pod;
}

/** When the pod finished (its containers' last finishedAt), for the back-off; undefined if unknown. */
export function podFinishedMs(pod: KubeObject): number | undefined {
  const status = statusOf(pod);
  let latest: number | undefined;
  for (const field of ['containerStatuses', 'initContainerStatuses']) {
    const list = status[field];
    if (!Array.isArray(list)) continue;
    for (const s of list) {
      const state = isObject(s) && isObject(s.state) ? s.state : {};
      const terminated = isObject(state.terminated) ? state.terminated : undefined;
      const t = typeof terminated?.finishedAt === 'string' ? Date.parse(terminated.finishedAt) : Number.NaN;
      if (!Number.isNaN(t) && (latest === undefined || t > latest)) latest = t;
    }
  }
  return latest;
}
