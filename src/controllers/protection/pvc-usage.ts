import { isObject, type KubeObject } from '../../api/types.js';

/** The pod informer index the PVC protection controller reads: "<namespace>/<claim>" per claim a pod may use. */
export const POD_PVC_INDEX = 'pod-pvc';

interface PodVolume {
  readonly name?: string;
  readonly persistentVolumeClaim?: { claimName?: string };
  readonly ephemeral?: unknown;
}

function volumesOf(pod: KubeObject): PodVolume[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return Array.isArray(spec.volumes) ? (spec.volumes.filter(isObject) as PodVolume[]) : [];
}

/** ephemeral.VolumeClaimName: the PVC a generic ephemeral volume gets is named "<pod>-<volume>". */
function ephemeralClaimName(pod: KubeObject, volume: PodVolume): string {
  return `${pod.metadata.name ?? ''}-${volume.name ?? ''}`;
}

/** The claims a pod refers to, persistent or ephemeral (common.PodPVCIndexFunc). */
export function podPVCIndexFunc(pod: KubeObject): string[] {
  const keys: string[] = [];
  for (const volume of volumesOf(pod)) {
    const claim =
      volume.persistentVolumeClaim !== undefined
        ? (volume.persistentVolumeClaim.claimName ?? '')
        : volume.ephemeral !== undefined
          ? ephemeralClaimName(pod, volume)
          : '';
    if (claim !== '') keys.push(`${pod.metadata.namespace ?? ''}/${claim}`);
  }
  return keys;
}

const phaseOf = (pod: KubeObject): unknown => (isObject(pod.status) ? pod.status.phase : undefined);

/** A pod the kubelet is done with: deleted with grace 0 (after the kubelet finished, or forced). */
function isShutDown(pod: KubeObject): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionGracePeriodSeconds === 0;
}

/** The PVC is controlled by this pod (ephemeral.VolumeIsForPod). */
function isOwnedByPod(pvc: KubeObject, pod: KubeObject): boolean {
  if (pvc.metadata.namespace !== pod.metadata.namespace) return false;
  const controller = (pvc.metadata.ownerReferences ?? []).find((ref) => ref.controller === true);
  return controller !== undefined && controller.uid === pod.metadata.uid;
}

/** The pod's phase is final. */
export function isFinished(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * R6.5: a pod uses the PVC only once scheduled (the kubelet sees only scheduled pods and refuses a terminating
 * claim), through a persistentVolumeClaim volume in any phase, or through a generic ephemeral volume whose claim is
 * this PVC, owned by the pod, while the pod is not shut down. `countFinishedPods` false departs from Kubernetes
 * (debt D15): Succeeded and Failed pods then no longer count.
 */
export function podUsesPVC(pod: KubeObject, pvc: KubeObject, countFinishedPods: boolean): boolean {
  const nodeName = isObject(pod.spec) ? pod.spec.nodeName : undefined;
  if (typeof nodeName !== 'string' || nodeName === '') return false;
  if (!countFinishedPods && isFinished(pod)) return false;
  const name = pvc.metadata.name ?? '';
  return volumesOf(pod).some(
    (volume) =>
      (volume.persistentVolumeClaim !== undefined && volume.persistentVolumeClaim.claimName === name) ||
      (!isShutDown(pod) && volume.ephemeral !== undefined && ephemeralClaimName(pod, volume) === name && isOwnedByPod(pvc, pod)),
  );
}

function notRunning(statuses: unknown): boolean {
  if (!Array.isArray(statuses)) return true;
  return statuses.every((status) => {
    const state = isObject(status) && isObject(status.state) ? status.state : {};
    return state.terminated !== undefined || state.waiting !== undefined;
  });
}

/** volumeutil.IsPodTerminated: a final phase, or deleted with no container running. */
export function isPodTerminated(pod: KubeObject): boolean {
  if (isFinished(pod)) return true;
  const status = isObject(pod.status) ? pod.status : {};
  return (
    pod.metadata.deletionTimestamp !== undefined &&
    notRunning(status.initContainerStatuses) &&
    notRunning(status.containerStatuses) &&
    notRunning(status.ephemeralContainerStatuses)
  );
}

/**
 * R6.6: the claims to re-check after a pod event — only when the pod can no longer be holding them back: it was
 * deleted, it terminated, or it is not scheduled. A pod still running on a node can only keep a claim.
 */
export function claimsToRecheck(pod: KubeObject, deleted: boolean): string[] {
  const nodeName = isObject(pod.spec) ? pod.spec.nodeName : undefined;
  const scheduled = typeof nodeName === 'string' && nodeName !== '';
  if (!deleted && !isPodTerminated(pod) && scheduled) return [];
  return podPVCIndexFunc(pod);
}
