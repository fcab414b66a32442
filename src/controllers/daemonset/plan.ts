import { isObject, type KubeObject } from '../../api/types.js';
import { isPodAvailable, isPodReady, numberOr, podPhase } from '../workloads/pods.js';
import { compareDaemonPods, isPodUpdated, nodeShouldRunDaemonPod, specOf, targetNode, templateGeneration } from './daemon-pods.js';

/**
 * What one DaemonSet sync decides, as pure functions of the nodes and the set's pods (manage, podsShouldBeOnNode,
 * rollingUpdate, updatedDesiredNodeCounts; R12.95–R12.97): nodes to create a pod on, pods to delete, and events.
 */

export interface PlanEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface Plan {
  readonly createOn: string[];
  /** Pod names. */
  readonly remove: string[];
  readonly events: PlanEvent[];
}

/** getNodesToDaemonPods: pods by the node they are on or aimed at; finished pods already being deleted left out. */
export function podsByNode(pods: readonly KubeObject[]): Map<string, KubeObject[]> {
  const byNode = new Map<string, KubeObject[]>();
  for (const pod of pods) {
    const phase = podPhase(pod);
    if ((phase === 'Succeeded' || phase === 'Failed') && pod.metadata.deletionTimestamp !== undefined) continue;
    const node = targetNode(pod);
    if (node === undefined) continue;
    const list = byNode.get(node);
    if (list === undefined) byNode.set(node, [pod]);
    else list.push(pod);
  }
  return byNode;
}

function rollingUpdate(ds: KubeObject): Record<string, unknown> | undefined {
  const strategy = specOf(ds).updateStrategy;
  if (!isObject(strategy) || (strategy.type ?? 'RollingUpdate') !== 'RollingUpdate') return undefined;
  return isObject(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
}

/** intstr.GetScaledValueFromIntOrPercent rounding up. */
function scaled(value: unknown, total: number, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+%$/.test(value)) return Math.ceil((Number(value.slice(0, -1)) * total) / 100);
  return fallback;
}

function maxSurge(ds: KubeObject, total: number): number {
  const r = rollingUpdate(ds);
  return r === undefined ? 0 : scaled(r.maxSurge, total, 0);
}

export function allowsSurge(ds: KubeObject): boolean {
  return maxSurge(ds, 1) !== 0;
}

export interface ManageInput {
  readonly ds: KubeObject;
  readonly nodes: readonly KubeObject[];
  readonly pods: readonly KubeObject[];
  readonly hash: string;
  readonly now: number;
  /** False while a node's failed-pod backoff runs: its failed pod is left for now. */
  readonly mayReplaceFailed: (node: string) => boolean;
}

/** manage: per node, create the missing pod, remove failed, finished, extra and misplaced ones. */
export function planManage(input: ManageInput): Plan {
  const { ds, hash } = input;
  const byNode = podsByNode(input.pods);
  const createOn: string[] = [];
  const remove: string[] = [];
  const events: PlanEvent[] = [];
  const minReadySeconds = numberOr(specOf(ds).minReadySeconds, 0);
  const surge = allowsSurge(ds);
  for (const node of input.nodes) {
    const name = node.metadata.name ?? '';
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const pods = byNode.get(name);
    if (shouldRun && pods === undefined) {
      createOn.push(name);
      continue;
    }
    if (pods === undefined) continue;
    if (!shouldContinueRunning) {
      for (const pod of pods) if (pod.metadata.deletionTimestamp === undefined) remove.push(pod.metadata.name ?? '');
      continue;
    }
    const running: KubeObject[] = [];
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp !== undefined) continue;
      const phase = podPhase(pod);
      const where = `${pod.metadata.namespace}/${pod.metadata.name} on node ${name}`;
      if (phase === 'Failed') {
        if (!input.mayReplaceFailed(name)) continue;
        events.push({ type: 'Warning', reason: 'FailedDaemonPod', message: `Found failed daemon pod ${where}, will try to kill it` });
        remove.push(pod.metadata.name ?? '');
      } else if (phase === 'Succeeded') {
        events.push({
          type: 'Normal',
          reason: 'SucceededDaemonPod',
          message: `Found succeeded daemon pod ${where}, will try to delete it`,
        });
        remove.push(pod.metadata.name ?? '');
      } else running.push(pod);
    }
    running.sort(compareDaemonPods);
    if (!surge) {
      // The oldest stays; a node whose only pod is going gets its new one once that pod is gone.
      for (const extra of running.slice(1)) remove.push(extra.metadata.name ?? '');
      continue;
    }
    if (running.length === 0) {
      if (shouldRun) createOn.push(name);
      continue;
    }
    // With surge, an old and a new pod coexist only while the new one is not available and the old one is ready.
    let oldestNew: KubeObject | undefined;
    let oldestOld: KubeObject | undefined;
    for (const pod of running) {
      const isNew = pod.metadata.labels?.['controller-revision-hash'] === hash;
      if (isNew && oldestNew === undefined) oldestNew = pod;
      else if (!isNew && oldestOld === undefined) oldestOld = pod;
      else remove.push(pod.metadata.name ?? '');
    }
    if (oldestNew !== undefined && oldestOld !== undefined) {
      if (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReadySeconds, input.now)) remove.push(oldestOld.metadata.name ?? '');
    }
  }
  // Unbound pods aimed at nodes that are gone.
  const existing = new Set(input.nodes.map((n) => n.metadata.name ?? ''));
  for (const [name, pods] of byNode) {
    if (existing.has(name)) continue;
    for (const pod of pods) {
      const bound = specOf(pod).nodeName;
      if (typeof bound !== 'string' || bound === '') remove.push(pod.metadata.name ?? '');
    }
  }
  return { createOn, remove, events };
}

/** findUpdatedPodsOnNode: the node's one new and one old non-terminating pod; undefined when it has more. */
function updatedPodsOnNode(
  ds: KubeObject,
  pods: readonly KubeObject[],
  hash: string,
): { fresh?: KubeObject; old?: KubeObject } | undefined {
  const generation = templateGeneration(ds);
  let fresh: KubeObject | undefined;
  let old: KubeObject | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (fresh !== undefined) return undefined;
      fresh = pod;
    } else {
      if (old !== undefined) return undefined;
      old = pod;
    }
  }
  return { fresh, old };
}

/** rollingUpdate (R12.96): old pods to delete and, with surge, nodes to start an updated pod on beside the old one. */
export function planRollingUpdate(input: Omit<ManageInput, 'mayReplaceFailed'>): Plan {
  const { ds, hash, now } = input;
  const byNode = podsByNode(input.pods);
  const shouldRunOn = new Map<string, boolean>();
  let desired = 0;
  for (const node of input.nodes) {
    const name = node.metadata.name ?? '';
    const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
    shouldRunOn.set(name, shouldRun);
    if (!shouldRun) continue;
    desired++;
    if (!byNode.has(name)) byNode.set(name, []);
  }
  const r = rollingUpdate(ds) ?? {};
  const surge = maxSurge(ds, desired);
  let unavailable = scaled(r.maxUnavailable, desired, 1);
  if (desired > 0 && unavailable === 0 && surge === 0) unavailable = 1;
  const minReadySeconds = numberOr(specOf(ds).minReadySeconds, 0);
  const available = (pod: KubeObject): boolean => isPodAvailable(pod, minReadySeconds, now);
  const name = (pod: KubeObject): string => pod.metadata.name ?? '';
  if (surge === 0) {
    let numUnavailable = 0;
    const replaceNow: string[] = [];
    const candidates: string[] = [];
    for (const pods of byNode.values()) {
      const found = updatedPodsOnNode(ds, pods, hash);
      if (found === undefined || (found.fresh === undefined) === (found.old === undefined)) numUnavailable++;
      else if (found.fresh !== undefined) {
        if (!available(found.fresh)) numUnavailable++;
      } else if (found.old !== undefined) {
        if (!available(found.old)) replaceNow.push(name(found.old));
        else if (numUnavailable < unavailable) candidates.push(name(found.old));
      }
    }
    const room = Math.min(Math.max(0, unavailable - numUnavailable), candidates.length);
    return { createOn: [], remove: [...replaceNow, ...candidates.slice(0, room)], events: [] };
  }
  let numSurge = 0;
  const createNow: string[] = [];
  const candidates: string[] = [];
  const remove: string[] = [];
  for (const [node, pods] of byNode) {
    const found = updatedPodsOnNode(ds, pods, hash);
    if (found === undefined) {
      numSurge++;
      continue;
    }
    if (found.old === undefined) continue;
    if (found.fresh === undefined) {
      if (!available(found.old)) {
        if (shouldRunOn.get(node) !== true) remove.push(name(found.old));
        else createNow.push(node);
      } else if (numSurge < surge) candidates.push(node);
    } else if (!available(found.fresh)) numSurge++;
    else remove.push(name(found.old));
  }
  const room = Math.min(Math.max(0, surge - numSurge), candidates.length);
  return { createOn: [...createNow, ...candidates.slice(0, room)], remove, events: [] };
}
