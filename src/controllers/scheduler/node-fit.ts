import { isObject, type KubeObject } from '../../api/types.js';
import { quantityValue } from '../../validation/quantity-value.js';
import type { PodRequests } from './pod-requests.js';
import { specOf } from '../../api/json-fields.js';

/** What is already placed on a node: the summed requests of its non-terminal pods, and their count. */
export interface NodeUsage {
  cpu: number;
  memory: number;
  nonZeroCpu: number;
  nonZeroMemory: number;
  pods: number;
}

/** Why one node cannot take the pod; `resolvable` failures are those preemption could cure (Unschedulable, not …AndUnresolvable). */
export interface FitFailure {
  readonly reasons: readonly string[];
  readonly resolvable: boolean;
}

export const emptyUsage = (): NodeUsage => ({ cpu: 0, memory: 0, nonZeroCpu: 0, nonZeroMemory: 0, pods: 0 });

const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** v1.Toleration.ToleratesTaint. */
export function tolerates(toleration: Record<string, unknown>, taint: { key: string; value: string; effect: string }): boolean {
  const effect = typeof toleration.effect === 'string' ? toleration.effect : '';
  if (effect !== '' && effect !== taint.effect) return false;
  const key = typeof toleration.key === 'string' ? toleration.key : '';
  if (key !== '' && key !== taint.key) return false;
  const operator = typeof toleration.operator === 'string' && toleration.operator !== '' ? toleration.operator : 'Equal';
  if (operator === 'Exists') return true;
  return operator === 'Equal' && (toleration.value ?? '') === taint.value;
}

function toleratesTaint(pod: KubeObject, taint: { key: string; value: string; effect: string }): boolean {
  return objects(specOf(pod).tolerations).some((t) => tolerates(t, taint));
}

function matchesExpression(values: (key: string) => string | undefined, expression: Record<string, unknown>): boolean {
  const key = typeof expression.key === 'string' ? expression.key : '';
  const wanted = Array.isArray(expression.values) ? expression.values.map(String) : [];
  const actual = values(key);
  switch (expression.operator) {
    case 'In':
      return actual !== undefined && wanted.includes(actual);
    case 'NotIn':
      return actual === undefined || !wanted.includes(actual);
    case 'Exists':
      return actual !== undefined;
    case 'DoesNotExist':
      return actual === undefined;
    case 'Gt':
    case 'Lt': {
      if (actual === undefined || wanted.length !== 1 || !/^-?\d+$/.test(actual) || !/^-?\d+$/.test(wanted[0] ?? '')) return false;
      const a = Number(actual);
      const b = Number(wanted[0]);
      return expression.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A NodeSelectorTerm: its expressions and fields ANDed; a term with neither matches no node. */
function matchesTerm(node: KubeObject, term: Record<string, unknown>): boolean {
  const expressions = objects(term.matchExpressions);
  const fields = objects(term.matchFields);
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const byLabel = (key: string): string | undefined => (Object.hasOwn(labels, key) ? labels[key] : undefined);
  const byField = (key: string): string | undefined => (key === 'metadata.name' ? node.metadata.name : undefined);
  return expressions.every((e) => matchesExpression(byLabel, e)) && fields.every((f) => matchesExpression(byField, f));
}

/** The NodeAffinity filter: spec.nodeSelector and requiredDuringSchedulingIgnoredDuringExecution. */
export function matchesNodeSelectorAndAffinity(pod: KubeObject, node: KubeObject): boolean {
  const spec = specOf(pod);
  const labels = node.metadata.labels ?? {};
  const selector = isObject(spec.nodeSelector) ? spec.nodeSelector : {};
  for (const [key, value] of Object.entries(selector)) {
    if (!Object.hasOwn(labels, key) || labels[key] !== value) return false;
  }
  const affinity = isObject(spec.affinity) && isObject(spec.affinity.nodeAffinity) ? spec.affinity.nodeAffinity : undefined;
  const required =
    affinity !== undefined && isObject(affinity.requiredDuringSchedulingIgnoredDuringExecution)
      ? affinity.requiredDuringSchedulingIgnoredDuringExecution
      : undefined;
  if (required === undefined) return true;
  return objects(required.nodeSelectorTerms).some((term) => matchesTerm(node, term));
}

function allocatable(node: KubeObject): { cpu: number; memory: number; pods: number } {
  const status = isObject(node.status) ? node.status : {};
  const a = isObject(status.allocatable) ? status.allocatable : {};
  return { cpu: quantityValue(a.cpu), memory: quantityValue(a.memory), pods: quantityValue(a.pods) };
}

/**
 * The default profile's filters in their order (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit),
 * stopping at the first that fails as the framework does; undefined when the node fits.
 */
export function filterNode(pod: KubeObject, requests: PodRequests, node: KubeObject, usage: NodeUsage): FitFailure | undefined {
  const nodeSpec = specOf(node);
  if (nodeSpec.unschedulable === true && !toleratesTaint(pod, { key: UNSCHEDULABLE_TAINT, value: '', effect: 'NoSchedule' })) {
    return { reasons: ['node(s) were unschedulable'], resolvable: false };
  }
  for (const taint of objects(nodeSpec.taints)) {
    const t = { key: String(taint.key ?? ''), value: String(taint.value ?? ''), effect: String(taint.effect ?? '') };
    if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
    if (!toleratesTaint(pod, t)) return { reasons: [`node(s) had untolerated taint {${t.key}: ${t.value}}`], resolvable: false };
  }
  if (!matchesNodeSelectorAndAffinity(pod, node)) {
    return { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false };
  }
  const a = allocatable(node);
  const reasons: string[] = [];
  if (usage.pods + 1 > a.pods) reasons.push('Too many pods');
  if (requests.cpu > 0 && usage.cpu + requests.cpu > a.cpu + 1e-9) reasons.push('Insufficient cpu');
  if (requests.memory > 0 && usage.memory + requests.memory > a.memory) reasons.push('Insufficient memory');
  return reasons.length === 0 ? undefined : { reasons, resolvable: true };
}

/** NodeResourcesFit's LeastAllocated score (0–100): the mean free share of cpu and memory once the pod is placed. */
export function leastAllocatedScore(requests: PodRequests, node: KubeObject, usage: NodeUsage): number {
  const a = allocatable(node);
  const free = (capacity: number, used: number): number => (capacity <= 0 || used > capacity ? 0 : ((capacity - used) * 100) / capacity);
  return (free(a.cpu, usage.nonZeroCpu + requests.nonZeroCpu) + free(a.memory, usage.nonZeroMemory + requests.nonZeroMemory)) / 2;
}

/** "<count> <reason>" entries sorted as strings, as FitError.Error sorts its histogram. */
function histogram(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts]
    .map(([reason, count]) => `${count} ${reason}`)
    .sort()
    .join(', ');
}

/**
 * FitError.Error with DefaultPreemption's post-filter message: `0/<N> nodes are available: <histogram>. preemption:
 * 0/<N> nodes are available: <histogram>.` (Cascade never preempts, so resolvable failures find no victims.)
 */
export function unschedulableMessage(pod: KubeObject, total: number, failures: readonly FitFailure[]): string {
  if (total === 0) return 'no nodes available to schedule pods';
  const head = `0/${total} nodes are available: ${histogram(failures.flatMap((f) => f.reasons))}.`;
  if (specOf(pod).preemptionPolicy === 'Never') return `${head} preemption: not eligible due to preemptionPolicy=Never.`;
  const preemption = failures.map((f) =>
    f.resolvable ? 'No preemption victims found for incoming pod' : 'Preemption is not helpful for scheduling',
  );
  return `${head} preemption: 0/${total} nodes are available: ${histogram(preemption)}.`;
}
