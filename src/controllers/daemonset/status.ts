import { isObject, type KubeObject } from '../../api/types.js';
import { isPodAvailable, isPodReady, numberOr } from '../workloads/pods.js';
import { compareDaemonPods, isPodUpdated, nodeShouldRunDaemonPod, specOf, templateGeneration } from './daemon-pods.js';
import { podsByNode } from './plan.js';

export interface DaemonStatus {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
}

/** updateDaemonSetStatus's counts (R12.98): per node that should run, its oldest daemon pod decides. */
export function computeDaemonStatus(
  ds: KubeObject,
  nodes: readonly KubeObject[],
  pods: readonly KubeObject[],
  hash: string,
  now: number,
): DaemonStatus {
  const byNode = podsByNode(pods);
  const minReadySeconds = numberOr(specOf(ds).minReadySeconds, 0);
  const generation = templateGeneration(ds);
  const s: DaemonStatus = {
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
  };
  for (const node of nodes) {
    const onNode = byNode.get(node.metadata.name ?? '') ?? [];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (onNode.length > 0) s.numberMisscheduled++;
      continue;
    }
    s.desiredNumberScheduled++;
    const oldest = [...onNode].sort(compareDaemonPods)[0];
    if (oldest === undefined) continue;
    s.currentNumberScheduled++;
    if (isPodReady(oldest)) {
      s.numberReady++;
      if (isPodAvailable(oldest, minReadySeconds, now)) s.numberAvailable++;
    }
    if (isPodUpdated(oldest, hash, generation)) s.updatedNumberScheduled++;
  }
  s.numberUnavailable = s.desiredNumberScheduled - s.numberAvailable;
  return s;
}

/** Always-serialized counters stay; the omitempty ones go when zero. */
const ALWAYS = new Set(['desiredNumberScheduled', 'currentNumberScheduled', 'numberMisscheduled', 'numberReady']);

/** The stored status with these counts (and, when given, observedGeneration); undefined when nothing changes. */
export function nextDaemonStatus(
  ds: KubeObject,
  counts: DaemonStatus,
  observedGeneration: number | undefined,
): Record<string, unknown> | undefined {
  const old = isObject(ds.status) ? ds.status : {};
  const next: Record<string, unknown> = { ...old };
  for (const [key, value] of Object.entries(counts)) {
    if (ALWAYS.has(key) || value !== 0) next[key] = value;
    else delete next[key];
  }
  if (observedGeneration !== undefined) next.observedGeneration = observedGeneration;
  const changed = Object.keys({ ...old, ...next }).some((k) => (old[k] ?? 0) !== (next[k] ?? 0));
  return changed ? next : undefined;
}
