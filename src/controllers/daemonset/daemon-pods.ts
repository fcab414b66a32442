import { isObject, type KubeObject } from '../../api/types.js';
import { matchesNodeSelectorAndAffinity, tolerates } from '../scheduler/node-fit.js';

/**
 * Which nodes a DaemonSet's pods belong on and how they are pinned there (daemon_controller.go predicates,
 * util/daemonset_util.go; R12.92–R12.94).
 */

export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);
export const specOf = (obj: KubeObject): Record<string, unknown> => (isObject(obj.spec) ? obj.spec : {});

/** The tolerations every daemon pod carries, so node problems and cordons never evict or block it (R12.93). */
function daemonTolerations(hostNetwork: boolean): Record<string, unknown>[] {
  const noExecute = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];
  const noSchedule = [
    'node.kubernetes.io/disk-pressure',
    'node.kubernetes.io/memory-pressure',
    'node.kubernetes.io/pid-pressure',
    'node.kubernetes.io/unschedulable',
    ...(hostNetwork ? ['node.kubernetes.io/network-unavailable'] : []),
  ];
  return [
    ...noExecute.map((key) => ({ key, operator: 'Exists', effect: 'NoExecute' })),
    ...noSchedule.map((key) => ({ key, operator: 'Exists', effect: 'NoSchedule' })),
  ];
}

/** AddOrUpdateTolerationInPodSpec for each daemon toleration: an equal one (key, operator, value, effect) is replaced. */
export function withDaemonTolerations(podSpec: Record<string, unknown>): Record<string, unknown> {
  const tolerations = objects(podSpec.tolerations).map((t) => ({ ...t }));
  for (const wanted of daemonTolerations(podSpec.hostNetwork === true)) {
    const same = tolerations.findIndex(
      (t) => t.key === wanted.key && t.effect === wanted.effect && t.operator === wanted.operator && (t.value ?? '') === '',
    );
    if (same >= 0) tolerations[same] = wanted;
    else tolerations.push(wanted);
  }
  return { ...podSpec, tolerations };
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one term naming the node. */
export function pinnedToNode(podSpec: Record<string, unknown>, node: string): Record<string, unknown> {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] };
  const affinity = isObject(podSpec.affinity) ? { ...podSpec.affinity } : {};
  const nodeAffinity = isObject(affinity.nodeAffinity) ? { ...affinity.nodeAffinity } : {};
  const required = isObject(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution)
    ? nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
    : {};
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { ...required, nodeSelectorTerms: [term] };
  affinity.nodeAffinity = nodeAffinity;
  return { ...podSpec, affinity };
}

/** GetTargetNodeName: the bound node, or for an unbound pod the node its single matchFields term names. */
export function targetNode(pod: KubeObject): string | undefined {
  const spec = specOf(pod);
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') return spec.nodeName;
  const affinity = isObject(spec.affinity) && isObject(spec.affinity.nodeAffinity) ? spec.affinity.nodeAffinity : {};
  const required = isObject(affinity.requiredDuringSchedulingIgnoredDuringExecution)
    ? affinity.requiredDuringSchedulingIgnoredDuringExecution
    : {};
  for (const term of objects(required.nodeSelectorTerms)) {
    for (const field of objects(term.matchFields)) {
      const values = Array.isArray(field.values) ? field.values : [];
      if (field.key === 'metadata.name' && field.operator === 'In' && values.length === 1 && typeof values[0] === 'string')
        return values[0];
    }
  }
  return undefined;
}

function taints(node: KubeObject): { key: string; value: string; effect: string }[] {
  return objects(specOf(node).taints).map((t) => ({
    key: String(t.key ?? ''),
    value: String(t.value ?? ''),
    effect: String(t.effect ?? ''),
  }));
}

/**
 * NodeShouldRunDaemonPod: `shouldRun` when a new daemon pod belongs there; `shouldContinueRunning` when an existing
 * one may stay (a node where only NoSchedule taints are untolerated keeps its pod).
 */
export function nodeShouldRunDaemonPod(node: KubeObject, ds: KubeObject): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const template = isObject(specOf(ds).template) ? (specOf(ds).template as Record<string, unknown>) : {};
  const templateSpec = isObject(template.spec) ? template.spec : {};
  const nodeName = node.metadata.name ?? '';
  if (typeof templateSpec.nodeName === 'string' && templateSpec.nodeName !== '' && templateSpec.nodeName !== nodeName) {
    return { shouldRun: false, shouldContinueRunning: false };
  }
  const pod: KubeObject = { metadata: {}, spec: withDaemonTolerations(templateSpec) };
  if (!matchesNodeSelectorAndAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const podTolerations = objects(specOf(pod).tolerations);
  const untolerated = taints(node).filter((taint) => !podTolerations.some((t) => tolerates(t, taint)));
  if (!untolerated.some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'))
    return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated.some((t) => t.effect === 'NoExecute') };
}

export function templateGeneration(ds: KubeObject): string | undefined {
  return ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
}

/** IsPodUpdated: the pod carries the current revision hash or the current template generation. */
export function isPodUpdated(pod: KubeObject, hash: string, generation: string | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  return (
    (hash !== '' && labels['controller-revision-hash'] === hash) ||
    (generation !== undefined && labels[POD_TEMPLATE_GENERATION_LABEL] === generation)
  );
}

/** podByCreationTimestampAndPhase: bound pods first, then oldest, then by name. */
export function compareDaemonPods(a: KubeObject, b: KubeObject): number {
  const boundA = typeof specOf(a).nodeName === 'string' && specOf(a).nodeName !== '';
  const boundB = typeof specOf(b).nodeName === 'string' && specOf(b).nodeName !== '';
  if (boundA !== boundB) return boundA ? -1 : 1;
  const ca = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const cb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ca !== cb) return ca - cb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
