import { isObject, type KubeObject } from '../../api/types.js';
import { isPodReady } from '../workloads/pods.js';

/**
 * The disruption controller's arithmetic (pkg/controller/disruption/disruption.go): how many pods a
 * PodDisruptionBudget expects and wants healthy, how many are, and so how many may be evicted now. Pure: the
 * controller gathers the pods and their controllers' scales.
 */

type Json = Record<string, unknown>;

/** Evictions recorded in status.disruptedPods count as gone for this long unless the pod goes sooner. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

const record = (value: unknown): Json => (isObject(value) ? value : {});

/** intstr.GetScaledValueFromIntOrPercent: an integer as is, a percentage of `total`, rounded up or down. */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(String(value));
  if (match === null) throw new Error(`invalid value for IntOrString: invalid value "${String(value)}"`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** Whether a budget's desired count depends on the pods' controllers (percentages and maxUnavailable do). */
export function needsControllerScale(pdb: KubeObject): boolean {
  const spec = record(pdb.spec);
  return spec.maxUnavailable !== undefined || (spec.minAvailable !== undefined && typeof spec.minAvailable !== 'number');
}

/** getExpectedPodCount: `expectedScale` is the sum of the pods' controllers' replicas (when needed). */
export function expectedCounts(pdb: KubeObject, podCount: number, expectedScale: number): { expected: number; desiredHealthy: number } {
  const spec = record(pdb.spec);
  if (spec.maxUnavailable !== undefined) {
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedScale, true);
    return { expected: expectedScale, desiredHealthy: Math.max(0, expectedScale - maxUnavailable) };
  }
  if (typeof spec.minAvailable === 'number') return { expected: podCount, desiredHealthy: spec.minAvailable };
  if (spec.minAvailable !== undefined)
    return { expected: expectedScale, desiredHealthy: scaledValue(spec.minAvailable, expectedScale, true) };
  return { expected: podCount, desiredHealthy: 0 };
}

/** The budget's disruptedPods still pending: evictions younger than the timeout of pods not yet being deleted. */
export function pendingDisruptions(pdb: KubeObject, pods: readonly KubeObject[], now: number): Record<string, string> {
  const recorded = record(record(pdb.status).disruptedPods);
  const byName = new Map(pods.map((p) => [p.metadata.name ?? '', p]));
  const pending: Record<string, string> = {};
  for (const [name, at] of Object.entries(recorded)) {
    const pod = byName.get(name);
    if (pod === undefined || pod.metadata.deletionTimestamp !== undefined) continue;
    if (typeof at === 'string' && Date.parse(at) + DELETION_TIMEOUT_MS > now) pending[name] = at;
  }
  return pending;
}

/** countHealthyPods: ready pods neither being deleted nor recorded as just evicted. */
export function healthyPods(pods: readonly KubeObject[], disrupted: Readonly<Record<string, string>>): number {
  return pods.filter((p) => p.metadata.deletionTimestamp === undefined && !((p.metadata.name ?? '') in disrupted) && isPodReady(p)).length;
}

/** The status a sync writes; `failure` is the SyncFailed message when the expected count could not be computed. */
export function budgetStatus(
  pdb: KubeObject,
  counts: { expected: number; desiredHealthy: number; currentHealthy: number },
  disrupted: Record<string, string>,
  now: string,
  failure?: string,
): Json {
  const old = record(pdb.status);
  const allowed = failure === undefined ? Math.max(0, counts.currentHealthy - counts.desiredHealthy) : 0;
  const disruptionsAllowed = counts.expected <= 0 ? 0 : allowed;
  const condition =
    failure !== undefined
      ? { status: 'False', reason: 'SyncFailed', message: failure }
      : disruptionsAllowed > 0
        ? { status: 'True', reason: 'SufficientPods', message: '' }
        : { status: 'False', reason: 'InsufficientPods', message: '' };
  const previous = (Array.isArray(old.conditions) ? old.conditions.filter(isObject) : []).find((c) => c.type === 'DisruptionAllowed');
  const lastTransitionTime = previous !== undefined && previous.status === condition.status ? previous.lastTransitionTime : now;
  const status: Json = {};
  if (pdb.metadata.generation !== undefined) status.observedGeneration = pdb.metadata.generation;
  if (Object.keys(disrupted).length > 0) status.disruptedPods = disrupted;
  status.disruptionsAllowed = disruptionsAllowed;
  status.currentHealthy = counts.currentHealthy;
  status.desiredHealthy = counts.desiredHealthy;
  status.expectedPods = counts.expected;
  status.conditions = [
    {
      type: 'DisruptionAllowed',
      status: condition.status,
      ...(pdb.metadata.generation !== undefined ? { observedGeneration: pdb.metadata.generation } : {}),
      lastTransitionTime,
      reason: condition.reason,
      message: condition.message,
    },
  ];
  return status;
}
