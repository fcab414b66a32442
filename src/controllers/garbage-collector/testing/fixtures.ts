import type { KubeObject, OwnerReference } from '../../../api/types.js';
import type { GraphNode, ObjectIdentity } from '../graph.js';
import type { GraphChange } from '../graph-builder.js';

/** Identities, objects, informer events and the one-line descriptions step tests compare states by. */

export function makeId(apiVersion: string, kind: string, namespace: string, name: string, uid: string): ObjectIdentity {
  return { apiVersion, kind, namespace, name, uid };
}

/** An owner as a reference names it: any identity (its namespace is ignored), optionally blocking or controlling. */
export type OwnerSpec = Pick<OwnerReference, 'apiVersion' | 'kind' | 'name' | 'uid'> &
  Partial<Pick<OwnerReference, 'blockOwnerDeletion' | 'controller'>>;

export function ownerRef(owner: OwnerSpec): OwnerReference {
  const ref: OwnerReference = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid };
  if (owner.controller !== undefined) ref.controller = owner.controller;
  if (owner.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = owner.blockOwnerDeletion;
  return ref;
}

/** A reference with `blockOwnerDeletion: true`. */
export function blocking(owner: OwnerSpec): OwnerSpec {
  return { ...ownerRef(owner), blockOwnerDeletion: true };
}

export interface ObjectOptions {
  readonly owners?: readonly OwnerSpec[];
  readonly finalizers?: readonly string[];
  /** Set a deletionTimestamp (the object is being deleted, kept by its finalizers). */
  readonly deleting?: boolean;
}

/**
 * An object with the identity's coordinates, at resourceVersion "1" (as the fake client stores a new object, so an
 * event built from it matches the store); cluster-scoped when the identity's namespace is empty.
 */
export function makeObject(id: ObjectIdentity, options: ObjectOptions = {}): KubeObject {
  const metadata: KubeObject['metadata'] = { name: id.name, uid: id.uid, resourceVersion: '1' };
  if (id.namespace !== '') metadata.namespace = id.namespace;
  if (options.owners !== undefined && options.owners.length > 0) metadata.ownerReferences = options.owners.map(ownerRef);
  if (options.finalizers !== undefined && options.finalizers.length > 0) metadata.finalizers = [...options.finalizers];
  if (options.deleting === true) {
    metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    metadata.deletionGracePeriodSeconds = 0;
  }
  return { apiVersion: id.apiVersion, kind: id.kind, metadata };
}

const coordinatesOf = (obj: KubeObject) => ({ apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' });

export function addEvent(obj: KubeObject): GraphChange {
  return { type: 'add', object: obj, coordinates: coordinatesOf(obj) };
}

export function updateEvent(old: KubeObject, obj: KubeObject): GraphChange {
  return { type: 'update', object: obj, old, coordinates: coordinatesOf(obj) };
}

export function deleteEvent(obj: KubeObject): GraphChange {
  return { type: 'delete', object: obj, coordinates: coordinatesOf(obj) };
}

/** "v1/Pod ns1/podname1 (poduid1)"; no namespace part for cluster-scoped identities (and namespace-less virtual ones). */
export function describeIdentity(id: ObjectIdentity): string {
  const where = id.namespace === '' ? id.name : `${id.namespace}/${id.name}`;
  return `${id.apiVersion}/${id.kind} ${where} (${id.uid})`;
}

function describeRef(ref: OwnerSpec): string {
  return `${ref.apiVersion}/${ref.kind} ${ref.name} (${ref.uid})${ref.blockOwnerDeletion === true ? ' blocking' : ''}`;
}

export interface NodeExpectation {
  readonly owners?: readonly OwnerSpec[];
  readonly virtual?: boolean;
  readonly beingDeleted?: boolean;
  readonly deletingDependents?: boolean;
}

/** A graph node as step states list it; `describeNode` gives the same line for the node itself. */
export function node(id: ObjectIdentity, expected: NodeExpectation = {}): string {
  const parts = [`${expected.virtual === true ? 'virtual ' : ''}${describeIdentity(id)}`];
  if (expected.owners !== undefined && expected.owners.length > 0) parts.push(`owners=[${expected.owners.map(describeRef).join(', ')}]`);
  if (expected.deletingDependents === true) parts.push('deletingDependents');
  else if (expected.beingDeleted === true) parts.push('beingDeleted');
  return parts.join(' ');
}

export function describeNode(n: GraphNode): string {
  return node(n.identity, { owners: n.owners, virtual: n.virtual, beingDeleted: n.beingDeleted, deletingDependents: n.deletingDependents });
}

/** A queue entry that came back through the worker loop's backoff or fixed delay rather than a plain add. */
export function requeued(nodeLine: string, via: 'rate-limited' | `after ${number}ms`): string {
  return `${nodeLine} [${via}]`;
}

export function describeChange(change: GraphChange): string {
  if (change.type === 'virtual-delete') return `virtual-delete ${describeIdentity(change.identity)}`;
  const { metadata } = change.object;
  return `${change.type} ${describeIdentity({ ...change.coordinates, name: metadata.name ?? '', uid: metadata.uid ?? '', namespace: metadata.namespace ?? '' })}`;
}
