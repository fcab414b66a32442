import { isObject, type KubeObject, type OwnerReference } from '../../api/types.js';
import { CONTROLLER_REVISION_HASH_LABEL } from '../history/controller-history.js';
import { isPodAvailable, isPodReady, numberOr, podFromTemplate, podPhase } from '../workloads/pods.js';

/**
 * A StatefulSet pod's stable identity and storage (stateful_set_utils.go, R12.78, R12.79): the name
 * `<set>-<ordinal>`, identity labels, hostname and subdomain, and one claim per volumeClaimTemplate.
 */

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

const ORDINAL_NAME = /^(.*)-([0-9]+)$/;

export const specOf = (obj: KubeObject): Record<string, unknown> => (isObject(obj.spec) ? obj.spec : {});
export const statusOf = (obj: KubeObject): Record<string, unknown> => (isObject(obj.status) ? obj.status : {});
const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** The parent name and ordinal a pod's name encodes (getParentNameAndOrdinal); ordinal -1 when it encodes none. */
export function parentAndOrdinal(pod: KubeObject): { parent: string; ordinal: number } {
  const match = ORDINAL_NAME.exec(pod.metadata.name ?? '');
  if (match === null) return { parent: '', ordinal: -1 };
  const ordinal = Number(match[2]);
  return { parent: match[1] ?? '', ordinal: Number.isSafeInteger(ordinal) && ordinal <= 2147483647 ? ordinal : -1 };
}

/** isMemberOf: the filter a StatefulSet adds to its selector when claiming pods (R12.23). */
export function isMemberOf(set: KubeObject, pod: KubeObject): boolean {
  return parentAndOrdinal(pod).parent === set.metadata.name;
}

export function startOrdinal(set: KubeObject): number {
  const ordinals = specOf(set).ordinals;
  return isObject(ordinals) ? numberOr(ordinals.start, 0) : 0;
}

export function replicaCount(set: KubeObject): number {
  return numberOr(specOf(set).replicas, 1);
}

/** Whether an ordinal belongs to the set's range [start, start + replicas). */
export function inOrdinalRange(set: KubeObject, ordinal: number): boolean {
  const start = startOrdinal(set);
  return ordinal >= start && ordinal < start + replicaCount(set);
}

export function podName(set: KubeObject, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

export function claimTemplates(set: KubeObject): Record<string, unknown>[] {
  return objects(specOf(set).volumeClaimTemplates);
}

function templateName(claim: Record<string, unknown>): string {
  return isObject(claim.metadata) && typeof claim.metadata.name === 'string' ? claim.metadata.name : '';
}

export function claimName(set: KubeObject, template: Record<string, unknown>, ordinal: number): string {
  return `${templateName(template)}-${set.metadata.name}-${ordinal}`;
}

/**
 * The claims a pod of the set uses (getPersistentVolumeClaims): each template's spec and metadata, named for the
 * ordinal, in the set's namespace, labelled with the template labels plus the selector's matchLabels.
 */
export function claimsFor(set: KubeObject, ordinal: number): KubeObject[] {
  const selector = specOf(set).selector;
  const matchLabels = isObject(selector) && isObject(selector.matchLabels) ? (selector.matchLabels as Record<string, string>) : {};
  return claimTemplates(set).map((template) => {
    const meta = isObject(template.metadata) ? template.metadata : {};
    const labels = { ...(isObject(meta.labels) ? (meta.labels as Record<string, string>) : {}), ...matchLabels };
    const annotations = isObject(meta.annotations) ? { annotations: { ...(meta.annotations as Record<string, string>) } } : {};
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: claimName(set, template, ordinal), namespace: set.metadata.namespace, labels, ...annotations },
      spec: structuredClone(template.spec),
    };
  });
}

/** updateStorage: a volume per claim template (replacing a template volume of the same name), then the others. */
function storageVolumes(set: KubeObject, ordinal: number, current: unknown): Record<string, unknown>[] {
  const templates = claimTemplates(set);
  const names = new Set(templates.map(templateName));
  const claimVolumes = templates.map((t) => ({
    name: templateName(t),
    persistentVolumeClaim: { claimName: claimName(set, t, ordinal) },
  }));
  return [...claimVolumes, ...objects(current).filter((v) => !names.has(String(v.name)))];
}

/** newVersionedStatefulSetPod: the template of the chosen revision, the identity, the storage, the revision label. */
export function newStatefulSetPod(set: KubeObject, template: Record<string, unknown>, revisionName: string, ordinal: number): KubeObject {
  const pod = podFromTemplate(template, set);
  const name = podName(set, ordinal);
  pod.metadata.name = name;
  pod.metadata.labels = {
    ...pod.metadata.labels,
    [POD_NAME_LABEL]: name,
    [POD_INDEX_LABEL]: String(ordinal),
    [CONTROLLER_REVISION_HASH_LABEL]: revisionName,
  };
  const spec = isObject(pod.spec) ? pod.spec : {};
  spec.hostname = name;
  const serviceName = specOf(set).serviceName;
  if (typeof serviceName === 'string' && serviceName !== '') spec.subdomain = serviceName;
  if (claimTemplates(set).length > 0) spec.volumes = storageVolumes(set, ordinal, spec.volumes);
  pod.spec = spec;
  return pod;
}

/** identityMatches: name, namespace and the pod-name label as the set would give them. */
export function identityMatches(set: KubeObject, pod: KubeObject): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    parent === set.metadata.name &&
    pod.metadata.namespace === set.metadata.namespace &&
    pod.metadata.labels?.[POD_NAME_LABEL] === pod.metadata.name &&
    pod.metadata.labels?.[POD_INDEX_LABEL] === String(ordinal)
  );
}

/** The identity labels fixed on an existing pod (updateIdentity); undefined when nothing is to change. */
export function withIdentity(set: KubeObject, pod: KubeObject): KubeObject | undefined {
  if (identityMatches(set, pod)) return undefined;
  const { ordinal } = parentAndOrdinal(pod);
  const name = pod.metadata.name ?? '';
  return {
    ...pod,
    metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal) } },
  };
}

export function podRevision(pod: KubeObject): string {
  return pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
}

/** isCreated: the server gives every stored pod a phase; a pod still to be created has none. */
export function isCreated(pod: KubeObject): boolean {
  return podPhase(pod) !== '';
}

export function isTerminating(pod: KubeObject): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

export function isRunningAndReady(pod: KubeObject): boolean {
  return podPhase(pod) === 'Running' && isPodReady(pod);
}

export function isRunningAndAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  return podPhase(pod) === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}

/** isHealthy: running, ready and not being deleted. */
export function isHealthy(pod: KubeObject): boolean {
  return isRunningAndReady(pod) && !isTerminating(pod);
}

export function isFinished(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Failed' || phase === 'Succeeded';
}

/** metav1.NewControllerRef for a pod, as claims of a scaled-down pod carry it. */
export function podControllerRef(pod: KubeObject): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    name: pod.metadata.name ?? '',
    uid: pod.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}
