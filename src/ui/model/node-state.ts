import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../api/finalizers.js';
import type { OwnerReference } from '../../api/types.js';
import type { ObjectStore, StoredObject } from './object-store.js';

export type Termination = 'foreground' | 'background' | 'orphan';

/** What is wrong with one owner reference, as the collector would see it (R4.26). */
export interface ReferenceIssue {
  readonly kind: 'dangling' | 'invalid' | 'virtual';
  readonly owner: string;
  readonly message: string;
}

/** Everything a node shows about its deletion. */
export interface NodeState {
  readonly terminating?: { readonly mode: Termination; readonly sinceSeconds: number };
  readonly finalizers: readonly string[];
  /** Owners (kind/name) whose foreground deletion waits for this object (blockOwnerDeletion). */
  readonly blocking: readonly string[];
  /** Owners being deleted with propagation Orphan: this object is orphaned, it stays and loses the reference (R4.34). */
  readonly orphanedBy: readonly string[];
  /** Every owner reference is dangling or invalid: the garbage collector deletes it (R4.26). */
  readonly ownersAbsent: boolean;
  readonly referenceIssues: readonly ReferenceIssue[];
}

function terminationOf(finalizers: readonly string[]): Termination {
  if (finalizers.includes(FINALIZER_FOREGROUND)) return 'foreground';
  if (finalizers.includes(FINALIZER_ORPHAN)) return 'orphan';
  return 'background';
}

export function ownerLabel(ref: Pick<OwnerReference, 'kind' | 'name'>): string {
  return `${ref.kind}/${ref.name}`;
}

/** How a reference resolves against the store: the owner, or the issue that stands in for it. */
export function resolveOwner(store: ObjectStore, dependent: StoredObject, ref: OwnerReference): StoredObject | ReferenceIssue {
  const label = ownerLabel(ref);
  const resource = store.resourceOfKind(ref.apiVersion, ref.kind);
  if (resource === undefined)
    return { kind: 'virtual', owner: label, message: `${label}: owner never seen (kind ${ref.kind} of ${ref.apiVersion} is not served)` };
  const namespace = dependent.object.metadata.namespace;
  if (resource.namespaced && !dependent.resource.namespaced)
    return { kind: 'invalid', owner: label, message: `${label}: a cluster-scoped object cannot have a namespaced owner` };
  const owner = store.get(ref.uid);
  if (owner !== undefined && resource.namespaced && owner.object.metadata.namespace !== namespace)
    return {
      kind: 'invalid',
      owner: label,
      message: `${label}: the owner is in namespace ${owner.object.metadata.namespace ?? ''}, not ${namespace ?? ''}`,
    };
  if (owner === undefined)
    return { kind: 'dangling', owner: label, message: `${label}: dangling reference, no object with uid ${ref.uid}` };
  return owner;
}

export function isReferenceIssue(value: StoredObject | ReferenceIssue): value is ReferenceIssue {
  return 'message' in value;
}

export function nodeState(store: ObjectStore, stored: StoredObject, nowMs: number): NodeState {
  const meta = stored.object.metadata;
  const finalizers = meta.finalizers ?? [];
  const blocking: string[] = [];
  const orphanedBy: string[] = [];
  const issues: ReferenceIssue[] = [];
  let liveOwners = 0;
  for (const ref of meta.ownerReferences ?? []) {
    const owner = resolveOwner(store, stored, ref);
    if (isReferenceIssue(owner)) {
      issues.push(owner);
      continue;
    }
    liveOwners++;
    const ownerMeta = owner.object.metadata;
    const ownerFinalizers = ownerMeta.finalizers ?? [];
    const ownerDeleting = ownerMeta.deletionTimestamp !== undefined;
    if (ref.blockOwnerDeletion === true && ownerDeleting && ownerFinalizers.includes(FINALIZER_FOREGROUND)) blocking.push(ownerLabel(ref));
    if (ownerDeleting && ownerFinalizers.includes(FINALIZER_ORPHAN)) orphanedBy.push(ownerLabel(ref));
  }
  const deletion = meta.deletionTimestamp;
  return {
    ...(deletion === undefined
      ? {}
      : { terminating: { mode: terminationOf(finalizers), sinceSeconds: Math.max(0, Math.floor((nowMs - Date.parse(deletion)) / 1000)) } }),
    finalizers,
    blocking,
    orphanedBy,
    ownersAbsent: (meta.ownerReferences?.length ?? 0) > 0 && liveOwners === 0,
    referenceIssues: issues,
  };
}

export function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  return `${Math.floor(seconds / 3600)}h`;
}

/** The node's state in words: what a person reads on the node and what screen readers announce. */
export function describeState(state: NodeState): string[] {
  const words: string[] = [];
  if (state.terminating !== undefined)
    words.push(`terminating (${state.terminating.mode}) for ${formatAge(state.terminating.sinceSeconds)}`);
  else words.push('live');
  if (state.finalizers.length > 0) words.push(`held by finalizers: ${state.finalizers.join(', ')}`);
  for (const owner of state.blocking) words.push(`blocking owner ${owner}`);
  for (const owner of state.orphanedBy) words.push(`orphaned by ${owner}`);
  if (state.ownersAbsent) words.push('all owners absent: the garbage collector deletes it');
  for (const issue of state.referenceIssues)
    words.push(issue.kind === 'virtual' ? `virtual owner ${issue.owner}` : `${issue.kind} reference to ${issue.owner}`);
  return words;
}
