import { isObject, type KubeObject } from '../../api/types.js';
import { isPodReady, podPhase, podReadySince } from './pods.js';

const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';
/** Pending pods go first, then Unknown, then Running (podPhaseToOrdinal). */
const PHASE_ORDER: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

function nodeName(pod: KubeObject): string {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return typeof spec.nodeName === 'string' ? spec.nodeName : '';
}

function deletionCost(pod: KubeObject): number {
  const raw = pod.metadata.annotations?.[DELETION_COST_ANNOTATION];
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return 0;
  const n = Number(raw);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

function maxRestarts(pod: KubeObject): number {
  const statuses = isObject(pod.status) ? pod.status.containerStatuses : undefined;
  if (!Array.isArray(statuses)) return 0;
  let max = 0;
  for (const s of statuses) if (isObject(s) && typeof s.restartCount === 'number' && s.restartCount > max) max = s.restartCount;
  return max;
}

/**
 * Durations compared on a logarithmic scale (the LogarithmicScaleDown behaviour): pods that became ready, or were
 * created, within the same power-of-two number of seconds before now are equally old.
 */
function bucket(timestamp: number | undefined, now: number): number {
  if (timestamp === undefined) return Number.POSITIVE_INFINITY;
  const seconds = Math.max(0, (now - timestamp) / 1000);
  return seconds < 1 ? 0 : Math.floor(Math.log2(seconds)) + 1;
}

function created(pod: KubeObject): number | undefined {
  const t = Date.parse(pod.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The pods to delete when scaling down, in ActivePodsWithRanks order (R12.40): unassigned, then by phase, not
 * ready, lower deletion cost, more co-located related pods, more recently ready, more restarts, newer.
 */
export function podsToDelete(pods: readonly KubeObject[], related: readonly KubeObject[], count: number, now: number): KubeObject[] {
  if (count >= pods.length) return [...pods];
  const perNode = new Map<string, number>();
  for (const pod of related) {
    const node = nodeName(pod);
    if (node !== '' && pod.metadata.deletionTimestamp === undefined) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const rank = (pod: KubeObject): number => perNode.get(nodeName(pod)) ?? 0;
  const sorted = [...pods].sort((a, b) => {
    const assignedA = nodeName(a) !== '';
    const assignedB = nodeName(b) !== '';
    if (assignedA !== assignedB) return assignedA ? 1 : -1;
    const phaseA = PHASE_ORDER[podPhase(a)] ?? 0;
    const phaseB = PHASE_ORDER[podPhase(b)] ?? 0;
    if (phaseA !== phaseB) return phaseA - phaseB;
    const readyA = isPodReady(a);
    const readyB = isPodReady(b);
    if (readyA !== readyB) return readyA ? 1 : -1;
    const costDiff = deletionCost(a) - deletionCost(b);
    if (costDiff !== 0) return costDiff;
    const rankDiff = rank(b) - rank(a);
    if (rankDiff !== 0) return rankDiff;
    if (readyA && readyB) {
      const readyDiff = bucket(podReadySince(a), now) - bucket(podReadySince(b), now);
      if (readyDiff !== 0) return readyDiff;
    }
    const restartDiff = maxRestarts(b) - maxRestarts(a);
    if (restartDiff !== 0) return restartDiff;
    const ageDiff = bucket(created(a), now) - bucket(created(b), now);
    if (ageDiff !== 0) return ageDiff;
    return (a.metadata.uid ?? '') < (b.metadata.uid ?? '') ? -1 : (a.metadata.uid ?? '') > (b.metadata.uid ?? '') ? 1 : 0;
  });
  return sorted.slice(0, count);
}
