import { FINALIZER_FOREGROUND } from '../api/finalizers.js';
import { qualifiedResource } from '../api/resource-info.js';
import { type KubeObject, type OwnerReference, parseApiVersion } from '../api/types.js';
import { type Entry, type ObjectRef, refFromOwnerReference } from './object-ref.js';
import type { ClusterSnapshot } from './snapshot.js';

/** How the collector sees one owner of a dependent (R4.26). */
export type OwnerState = 'solid' | 'dangling' | 'waiting';

export interface ClassifiedReference {
  readonly reference: OwnerReference;
  readonly state: OwnerState;
  /** The object the reference resolves to by name (R4.26d), when it exists with the referenced uid. */
  readonly owner?: Entry;
}

/**
 * The collector's verdict on a dependent's references: classified, or one of the two ways it never collects the
 * dependent through them (R4.26b: the owner kind is not served, retried forever; R4.26c: a cluster-scoped object
 * referencing a namespaced kind).
 */
export type ReferenceClassification =
  | { readonly kind: 'classified'; readonly references: readonly ClassifiedReference[] }
  | { readonly kind: 'unmapped'; readonly reference: OwnerReference }
  | { readonly kind: 'namespaced-owner-of-cluster-scoped'; readonly reference: OwnerReference };

/** What an existing owner counts as; the preview substitutes the state owners will be in during the cascade. */
export type OwnerStateOf = (owner: Entry) => OwnerState;

export function isDeletingDependents(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND);
}

/** The live state: an owner deleting its dependents in the foreground is waiting, any other existing owner is solid. */
export const currentOwnerState: OwnerStateOf = (owner) => (isDeletingDependents(owner.object) ? 'waiting' : 'solid');

/** classifyReferences of garbagecollector.go over the snapshot, in reference order (R4.26). */
export async function classifyReferences(dependent: Entry, snapshot: ClusterSnapshot, stateOf: OwnerStateOf = currentOwnerState): Promise<ReferenceClassification> {
  const namespace = dependent.object.metadata.namespace;
  const dependentNamespaced = dependent.info.namespaced;
  const references: ClassifiedReference[] = [];
  for (const reference of dependent.object.metadata.ownerReferences ?? []) {
    const info = snapshot.resourceFor(reference.apiVersion, reference.kind);
    if (info === undefined) return { kind: 'unmapped', reference };
    if (!dependentNamespaced && info.namespaced) return { kind: 'namespaced-owner-of-cluster-scoped', reference };
    const owner = await snapshot.lookup(info, namespace, reference.name);
    if (owner === undefined || owner.object.metadata.uid !== reference.uid) references.push({ reference, state: 'dangling' });
    else references.push({ reference, state: stateOf(owner), owner });
  }
  return { kind: 'classified', references };
}

/** Why an owner reference does not point at a live owner the collector can use (R4.16, R4.26, R4.38, R4.39). */
export type ReferenceProblemKind =
  | 'owner-kind-not-served'
  | 'namespaced-owner-of-cluster-scoped-dependent'
  | 'owner-in-other-namespace'
  | 'coordinates-do-not-match-uid'
  | 'owner-recreated'
  | 'owner-missing';

export interface ReferenceProblem {
  readonly problem: ReferenceProblemKind;
  /** The owner as the reference names it. */
  readonly owner: ObjectRef;
  /** The object that really has the referenced uid, when it exists elsewhere or under other coordinates. */
  readonly actual?: ObjectRef;
  readonly message: string;
}

function sameGroupKindName(entry: Entry, ref: OwnerReference): boolean {
  return entry.info.group === parseApiVersion(ref.apiVersion).group && entry.info.kind === ref.kind && entry.object.metadata.name === ref.name;
}

/** Each reference of the object that the collector treats as absent or never follows, with the reason. */
export async function referenceProblems(dependent: Entry, snapshot: ClusterSnapshot): Promise<ReferenceProblem[]> {
  const problems: ReferenceProblem[] = [];
  const namespace = dependent.object.metadata.namespace;
  for (const reference of dependent.object.metadata.ownerReferences ?? []) {
    const info = snapshot.resourceFor(reference.apiVersion, reference.kind);
    const named = snapshot.resourceOfReference(reference);
    const ownerNamespace = named?.namespaced === true && dependent.info.namespaced ? namespace : undefined;
    const owner = refFromOwnerReference(reference, named === undefined ? '' : qualifiedResource(named), ownerNamespace);
    const label = `${reference.kind}/${reference.name} (uid ${reference.uid})`;
    if (info === undefined) {
      problems.push({ problem: 'owner-kind-not-served', owner, message: `owner ${label}: no served resource has apiVersion ${reference.apiVersion} and kind ${reference.kind}; the garbage collector retries it forever and never collects this object (R4.26b)` });
      continue;
    }
    if (!dependent.info.namespaced && info.namespaced) {
      problems.push({ problem: 'namespaced-owner-of-cluster-scoped-dependent', owner, message: `owner ${label}: a cluster-scoped object cannot be owned by a namespaced ${reference.kind}; the garbage collector never collects this object (R4.39)` });
      continue;
    }
    const resolved = await snapshot.lookup(info, namespace, reference.name);
    if (resolved !== undefined && resolved.object.metadata.uid === reference.uid) continue;
    const actual = snapshot.byUid(reference.uid);
    if (actual?.info.namespaced === true && actual.ref.namespace !== namespace) {
      problems.push({
        problem: 'owner-in-other-namespace',
        owner,
        actual: actual.ref,
        message: `owner ${label} is in namespace ${actual.ref.namespace}, but owner references resolve in the dependent's ${namespace === undefined ? 'scope (cluster)' : `namespace ${namespace}`}: the owner counts as absent (R4.38)`,
      });
    } else if (actual !== undefined && !sameGroupKindName(actual, reference)) {
      problems.push({
        problem: 'coordinates-do-not-match-uid',
        owner,
        actual: actual.ref,
        message: `owner ${label}: that uid belongs to ${actual.ref.kind}/${actual.ref.name}, so the reference resolves to nothing and the owner counts as absent (R4.16)`,
      });
    } else if (resolved !== undefined) {
      problems.push({ problem: 'owner-recreated', owner, actual: resolved.ref, message: `owner ${label}: ${reference.kind}/${reference.name} exists with another uid (${resolved.ref.uid}), so the referenced owner is gone (R4.26d)` });
    } else {
      problems.push({ problem: 'owner-missing', owner, message: `owner ${label} does not exist; the garbage collector treats the reference as dangling (R4.26d)` });
    }
  }
  return problems;
}
