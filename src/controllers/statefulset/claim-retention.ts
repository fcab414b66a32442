import { isObject, type KubeObject, type OwnerReference } from '../../api/types.js';
import { newControllerRef } from '../workloads/controller-ref.js';
import { inOrdinalRange, parentAndOrdinal, podControllerRef, specOf } from './identity.js';

/**
 * persistentVolumeClaimRetentionPolicy expressed as owner references on a pod's claims (R12.88, R12.89): the set
 * owns them when they go with the set, the pod owns them once it is scaled away and they go with it, so the
 * garbage collector does the deleting.
 */

type Policy = 'Retain' | 'Delete';

function policy(set: KubeObject): { whenDeleted: Policy; whenScaled: Policy } {
  const p = specOf(set).persistentVolumeClaimRetentionPolicy;
  const read = (value: unknown): Policy => (value === 'Delete' ? 'Delete' : 'Retain');
  return isObject(p)
    ? { whenDeleted: read(p.whenDeleted), whenScaled: read(p.whenScaled) }
    : { whenDeleted: 'Retain', whenScaled: 'Retain' };
}

/** Which of set and pod should own the claim of this pod. */
export function wantedOwners(set: KubeObject, pod: KubeObject): { set: boolean; pod: boolean } {
  const { whenDeleted, whenScaled } = policy(set);
  const condemned = !inOrdinalRange(set, parentAndOrdinal(pod).ordinal);
  if (whenScaled === 'Retain') return { set: whenDeleted === 'Delete', pod: false };
  if (whenDeleted === 'Retain') return { set: false, pod: condemned };
  return { set: !condemned, pod: condemned };
}

/** A reference to an earlier object of the same name: the claim belongs to history, not to this set or pod. */
function stale(ref: OwnerReference, owner: KubeObject, kind: string): boolean {
  return ref.kind === kind && ref.name === owner.metadata.name && ref.uid !== owner.metadata.uid;
}

/**
 * The claim's owner references as the policy wants them, or undefined when they already are, or when the claim
 * is not ours to change (a stale reference, or another controller).
 */
export function retentionOwnerRefs(set: KubeObject, pod: KubeObject, claim: KubeObject): OwnerReference[] | undefined {
  const refs = claim.metadata.ownerReferences ?? [];
  const setUid = set.metadata.uid;
  const podUid = pod.metadata.uid;
  if (refs.some((r) => stale(r, set, 'StatefulSet') || stale(r, pod, 'Pod'))) return undefined;
  if (refs.some((r) => r.controller === true && r.uid !== setUid && r.uid !== podUid)) return undefined;
  const wanted = wantedOwners(set, pod);
  const has = (uid: string | undefined): boolean => refs.some((r) => r.uid === uid && r.controller === true);
  if (
    has(setUid) === wanted.set &&
    has(podUid) === wanted.pod &&
    refs.filter((r) => r.uid === setUid || r.uid === podUid).length === (wanted.set ? 1 : 0) + (wanted.pod ? 1 : 0)
  ) {
    return undefined;
  }
  const kept = refs.filter((r) => r.uid !== setUid && r.uid !== podUid);
  if (wanted.set) kept.push(newControllerRef(set));
  if (wanted.pod) kept.push(podControllerRef(pod));
  return kept;
}
