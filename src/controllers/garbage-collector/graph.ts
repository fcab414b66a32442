import type { KubeObject, OwnerReference } from '../../api/types.js';

/**
 * The ownership graph (mirrors garbagecollector/graph.go; rules R4.1–R4.2). The GraphBuilder's single loop is the
 * only writer of nodes; workers only read them.
 */

/** Owner-reference coordinates plus namespace: what a node is, as far as references can tell (R4.1). */
export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** The object's namespace; for virtual nodes, the referencing dependent's namespace (D6). */
  readonly namespace: string;
}

export function identityString(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

export function sameCoordinates(a: ObjectIdentity, ref: Pick<OwnerReference, 'apiVersion' | 'kind' | 'name'>): boolean {
  return a.apiVersion === ref.apiVersion && a.kind === ref.kind && a.name === ref.name;
}

export class GraphNode {
  identity: ObjectIdentity;
  /** The ownerReferences last observed on the object. */
  owners: OwnerReference[];
  /**
   * The object as the informer last delivered it (undefined while virtual). Workers may act on it without a live
   * read only through a write conditional on its resourceVersion, so a stale copy can never decide anything.
   */
  observed: KubeObject | undefined;
  readonly dependents = new Set<GraphNode>();
  /** deletionTimestamp observed; never reset (one-way). */
  beingDeleted: boolean;
  /** deletionTimestamp and foregroundDeletion observed; never reset (one-way). */
  deletingDependents: boolean;
  /** Created from a reference and not yet observed through an informer. */
  virtual: boolean;

  constructor(
    identity: ObjectIdentity,
    owners: OwnerReference[],
    options: { virtual: boolean; observed?: KubeObject; beingDeleted?: boolean; deletingDependents?: boolean },
  ) {
    this.identity = identity;
    this.owners = owners;
    this.observed = options.observed;
    this.virtual = options.virtual;
    this.beingDeleted = options.beingDeleted ?? false;
    this.deletingDependents = options.deletingDependents ?? false;
  }

  /** Dependents whose reference to this node blocks its foreground deletion (R4.31). */
  blockingDependents(): GraphNode[] {
    const blocking: GraphNode[] = [];
    for (const dependent of this.dependents) {
      if (dependent.owners.some((ref) => ref.uid === this.identity.uid && ref.blockOwnerDeletion === true)) blocking.push(dependent);
    }
    return blocking;
  }
}

/** uid → node, plus the bookkeeping helpers the builder uses. */
export class Graph {
  private readonly nodes = new Map<string, GraphNode>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  insert(node: GraphNode): void {
    this.nodes.set(node.identity.uid, node);
  }

  remove(node: GraphNode): void {
    this.nodes.delete(node.identity.uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  values(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }
}

/**
 * Owners verified absent, so their dependents need no second lookup (R4.11). An entry is a full identity: the
 * namespace for namespaced owners and none for cluster-scoped ones. Bounded by uid, evicting the one verified
 * longest ago. Entries are found by uid first: every dependent of a cascade asks, so no key string is built.
 */
export class AbsentOwnerCache {
  private readonly byUid = new Map<string, ObjectIdentity[]>();
  private readonly capacity: number;

  constructor(capacity = 500) {
    this.capacity = capacity;
  }

  add(id: ObjectIdentity): void {
    const known = this.byUid.get(id.uid) ?? [];
    this.byUid.delete(id.uid);
    this.byUid.set(id.uid, known.some((k) => sameCoordinates(k, id) && k.namespace === id.namespace) ? known : [...known, id]);
    if (this.byUid.size > this.capacity) {
      const oldest = this.byUid.keys().next().value;
      if (oldest !== undefined) this.byUid.delete(oldest);
    }
  }

  /** Every identity held, verified longest ago first (for step tests and debugging; never on a hot path). */
  entries(): ObjectIdentity[] {
    return [...this.byUid.values()].flat();
  }

  /** Whether the owner `ref` names, as a cluster-scoped object or one in the dependent's namespace, is here. */
  hasReference(ref: OwnerReference, dependentNamespace: string): boolean {
    const known = this.byUid.get(ref.uid);
    if (known === undefined) return false;
    for (const k of known) {
      if (sameCoordinates(k, ref) && (k.namespace === '' || k.namespace === dependentNamespace)) return true;
    }
    return false;
  }
}
