import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../api/finalizers.js';
import type { KubeObject, OwnerReference } from '../../api/types.js';
import { AbsentOwnerCache, Graph, GraphNode, identityString, type ObjectIdentity, sameCoordinates } from './graph.js';

/**
 * The apiVersion and kind of a monitored resource's objects: typed lists omit them per item, so the monitor states
 * them once instead of every object being copied to carry them.
 */
export interface Coordinates {
  readonly apiVersion: string;
  readonly kind: string;
}

/** One observed change, or a "virtual delete" a worker reports after verifying an object is absent (R4.19). */
export type GraphChange =
  | { readonly type: 'add' | 'update'; readonly object: KubeObject; readonly old?: KubeObject; readonly coordinates: Coordinates }
  | { readonly type: 'delete'; readonly object: KubeObject; readonly coordinates: Coordinates }
  | { readonly type: 'virtual-delete'; readonly identity: ObjectIdentity };

export interface NodeQueue {
  add(node: GraphNode): void;
}

/** Where the builder reports references it finds invalid (R4.18). */
export type InvalidReferenceRecorder = (dependent: GraphNode, ownerRef: OwnerReference) => void;

function hasFinalizer(obj: KubeObject | undefined, finalizer: string): boolean {
  return obj?.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(finalizer);
}

function identityOf(obj: KubeObject, coordinates: Coordinates): ObjectIdentity {
  return {
    apiVersion: coordinates.apiVersion,
    kind: coordinates.kind,
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
    namespace: obj.metadata.namespace ?? '',
  };
}

function referenceIdentity(ref: OwnerReference, dependentNamespace: string): ObjectIdentity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: dependentNamespace };
}

/**
 * The single writer of the ownership graph (graph_builder.go's processGraphChanges; rules R4.3, R4.12–R4.20).
 * Changes are applied synchronously, one at a time, so workers never see a half-applied change; the builder
 * queues the nodes that need attention to attemptToDelete and attemptToOrphan.
 */
export class GraphBuilder {
  readonly graph = new Graph();
  readonly absentOwners = new AbsentOwnerCache();
  private readonly attemptToDelete: NodeQueue;
  private readonly attemptToOrphan: NodeQueue;
  private readonly recordInvalid: InvalidReferenceRecorder;

  constructor(attemptToDelete: NodeQueue, attemptToOrphan: NodeQueue, recordInvalid: InvalidReferenceRecorder) {
    this.attemptToDelete = attemptToDelete;
    this.attemptToOrphan = attemptToOrphan;
    this.recordInvalid = recordInvalid;
  }

  process(change: GraphChange): void {
    switch (change.type) {
      case 'add':
      case 'update':
        this.observe(change.object, change.old, change.coordinates);
        return;
      case 'delete':
        this.observeDelete(change.object, change.coordinates);
        return;
      case 'virtual-delete':
        this.verifiedAbsent(change.identity);
        return;
    }
  }

  private observe(obj: KubeObject, old: KubeObject | undefined, coordinates: Coordinates): void {
    const identity = identityOf(obj, coordinates);
    const owners = obj.metadata.ownerReferences ?? [];
    let node = this.graph.get(identity.uid);
    if (node === undefined) {
      // R4.12: a new uid (possibly added and deleted between two events).
      node = new GraphNode(identity, [...owners], {
        virtual: false,
        observed: obj,
        beingDeleted: obj.metadata.deletionTimestamp !== undefined,
        deletingDependents: hasFinalizer(obj, FINALIZER_FOREGROUND),
      });
      this.graph.insert(node);
      this.addDependentToOwners(node, owners);
      this.processTransitions(undefined, obj, node);
      return;
    }
    if (node.virtual) this.becameObserved(node, identity);
    else if (node.identity.apiVersion !== identity.apiVersion || node.identity.kind !== identity.kind) node.identity = identity;
    // R4.13: diff references by uid.
    const before = new Map(node.owners.map((r) => [r.uid, r]));
    const after = new Map(owners.map((r) => [r.uid, r]));
    const added = owners.filter((r) => !before.has(r.uid));
    const removed = node.owners.filter((r) => !after.has(r.uid));
    const changed = owners.filter((r) => {
      const prev = before.get(r.uid);
      return prev !== undefined && JSON.stringify(prev) !== JSON.stringify(r);
    });
    node.owners = [...owners];
    node.observed = obj;
    this.addDependentToOwners(node, added);
    this.removeDependentFromOwners(node, removed);
    for (const ref of changed) {
      const owner = this.graph.get(ref.uid);
      if (owner !== undefined) this.linkChecks(node, owner, ref);
    }
    // A reference that stopped blocking may let a waiting owner finish.
    for (const prev of [...removed, ...changed.map((r) => before.get(r.uid) as OwnerReference)]) {
      const now = after.get(prev.uid);
      if (prev.blockOwnerDeletion === true && now?.blockOwnerDeletion !== true) {
        const owner = this.graph.get(prev.uid);
        if (owner !== undefined) this.attemptToDelete.add(owner);
      }
    }
    if (obj.metadata.deletionTimestamp !== undefined) node.beingDeleted = true;
    this.processTransitions(old, obj, node);
  }

  /** R4.17: a virtual node is now backed by a real object; its identity becomes the observed one. */
  private becameObserved(node: GraphNode, observed: ObjectIdentity): void {
    node.virtual = false;
    const previous = node.identity;
    node.identity = observed;
    if (sameCoordinates(previous, observed) && previous.namespace === observed.namespace) return;
    for (const dependent of node.dependents) {
      const ref = dependent.owners.find((r) => r.uid === observed.uid);
      if (ref === undefined) continue;
      if (!sameCoordinates(observed, ref) || (observed.namespace !== '' && observed.namespace !== dependent.identity.namespace)) {
        if (observed.namespace !== '' && observed.namespace !== dependent.identity.namespace) this.recordInvalid(dependent, ref);
        this.attemptToDelete.add(dependent);
      }
    }
  }

  /** R4.14. */
  private processTransitions(old: KubeObject | undefined, obj: KubeObject, node: GraphNode): void {
    if (!hasFinalizer(old, FINALIZER_ORPHAN) && hasFinalizer(obj, FINALIZER_ORPHAN)) {
      this.attemptToOrphan.add(node);
      return;
    }
    if (!hasFinalizer(old, FINALIZER_FOREGROUND) && hasFinalizer(obj, FINALIZER_FOREGROUND)) {
      node.deletingDependents = true;
      for (const dependent of node.dependents) this.attemptToDelete.add(dependent);
      this.attemptToDelete.add(node);
    }
  }

  /** R4.3, R4.16: link a dependent to each owner, creating virtual owners for uids not yet observed. */
  private addDependentToOwners(node: GraphNode, refs: readonly OwnerReference[]): void {
    for (const ref of refs) {
      let owner = this.graph.get(ref.uid);
      if (owner === undefined) {
        owner = new GraphNode(referenceIdentity(ref, node.identity.namespace), [], { virtual: true });
        this.graph.insert(owner);
        this.attemptToDelete.add(owner);
      }
      owner.dependents.add(node);
      this.linkChecks(node, owner, ref);
    }
  }

  private linkChecks(dependent: GraphNode, owner: GraphNode, ref: OwnerReference): void {
    const ownerNamespaced = owner.identity.namespace !== '';
    if (!owner.virtual && ownerNamespaced && owner.identity.namespace !== dependent.identity.namespace) {
      this.recordInvalid(dependent, ref);
      this.attemptToDelete.add(dependent);
      return;
    }
    if (!owner.virtual && !sameCoordinates(owner.identity, ref)) {
      this.attemptToDelete.add(dependent);
      return;
    }
    if (owner.virtual && owner.identity.namespace !== dependent.identity.namespace) this.attemptToDelete.add(dependent);
  }

  private removeDependentFromOwners(node: GraphNode, refs: readonly OwnerReference[]): void {
    for (const ref of refs) this.graph.get(ref.uid)?.dependents.delete(node);
  }

  /** R4.15. One graph lookup per owner: a cascade passes here once per dependent, and every probe misses caches. */
  private observeDelete(obj: KubeObject, coordinates: Coordinates): void {
    const node = this.graph.get(obj.metadata.uid ?? '');
    if (node === undefined) return;
    this.graph.remove(node);
    for (const ref of node.owners) {
      const owner = this.graph.get(ref.uid);
      if (owner === undefined) continue;
      owner.dependents.delete(node);
      if (owner.deletingDependents) this.attemptToDelete.add(owner);
    }
    if (node.dependents.size === 0) return;
    this.absentOwners.add(identityOf(obj, coordinates));
    for (const dependent of node.dependents) this.attemptToDelete.add(dependent);
  }

  private removeNode(node: GraphNode): void {
    this.graph.remove(node);
    this.removeDependentFromOwners(node, node.owners);
  }

  /** R4.19, R4.20: a worker verified that `absent` does not exist. */
  private verifiedAbsent(absent: ObjectIdentity): void {
    const node = this.graph.get(absent.uid);
    if (node === undefined) return;
    const agrees = (dependent: GraphNode): boolean => {
      const ref = dependent.owners.find((r) => r.uid === absent.uid);
      return ref !== undefined && sameCoordinates(absent, ref) && dependent.identity.namespace === absent.namespace;
    };
    const all = [...node.dependents];
    const agreeing = all.filter(agrees);
    if (!node.virtual) {
      // R4.20: an observed node stays; dependents that pointed at the absent identity are re-examined.
      this.absentOwners.add(absent);
      for (const dependent of agreeing) this.attemptToDelete.add(dependent);
      return;
    }
    if (agreeing.length === all.length) {
      this.removeNode(node);
      this.absentOwners.add(absent);
      for (const dependent of all) this.attemptToDelete.add(dependent);
      return;
    }
    this.absentOwners.add(absent);
    for (const dependent of agreeing) this.attemptToDelete.add(dependent);
    if (sameCoordinates(node.identity, absent) && node.identity.namespace === absent.namespace) {
      node.identity = alternateIdentity(
        node,
        absent,
        all.filter((d) => !agrees(d)),
      );
    }
    this.attemptToDelete.add(node);
  }

  describe(node: GraphNode): string {
    return identityString(node.identity);
  }
}

/** R4.19: the next identity, in a stable order, that a disagreeing dependent uses for this uid. */
function alternateIdentity(node: GraphNode, absent: ObjectIdentity, disagreeing: GraphNode[]): ObjectIdentity {
  const candidates = disagreeing
    .map((d) => {
      const ref = d.owners.find((r) => r.uid === node.identity.uid);
      return ref === undefined ? undefined : referenceIdentity(ref, d.identity.namespace);
    })
    .filter((id): id is ObjectIdentity => id !== undefined);
  const order = (id: ObjectIdentity): string => [id.kind, id.apiVersion, id.namespace, id.name, id.uid].join('\u0000');
  candidates.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const after = candidates.find((c) => order(c) > order(absent));
  return after ?? candidates[0] ?? absent;
}
