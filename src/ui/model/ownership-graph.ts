import type { ObjectStore, StoredObject } from './object-store.js';
import { describeState, isReferenceIssue, type NodeState, nodeState, resolveOwner } from './node-state.js';
import { type Relation, relatedTo } from './relations.js';

/** More dependents of one kind under one owner than this become a single group node. */
export const GROUP_THRESHOLD = 12;
/** Bounds the walk, whatever the cluster holds (ownership cycles, very deep chains). */
const MAX_NODES = 400;
/** Service → Pod → PVC → PV is three hops. */
const RELATION_HOPS = 3;

export type NodeRole = 'target' | 'owner' | 'dependent' | 'related' | 'virtual' | 'group';

export interface GraphNode {
  readonly id: string;
  readonly role: NodeRole;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** The deep link of a real object, e.g. "#/namespaces/default/pods/web-1". */
  readonly href?: string;
  readonly state?: NodeState;
  /** The state in words, shown on the node and in its accessible name. */
  readonly words: readonly string[];
  readonly group?: { readonly count: number; readonly terminating: number; readonly withFinalizers: number };
}

export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  /** "owner" for an ownerReference, else the relation. */
  readonly type: 'owner' | Relation;
  readonly label?: string;
  readonly blockOwnerDeletion?: boolean;
}

export interface OwnershipGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** The walk stopped at MAX_NODES. */
  readonly truncated: boolean;
}

/** What the node says to a screen reader, and what Tab-navigation announces. */
export function accessibleName(n: GraphNode): string {
  if (n.group !== undefined) return `group of ${n.group.count} ${n.kind} dependents: ${n.words.join('; ')}`;
  return `${n.kind} ${n.name}${n.namespace === undefined ? '' : ` in ${n.namespace}`}: ${n.words.join('; ')}`;
}

export function hrefOf(stored: StoredObject): string {
  const ns = stored.object.metadata.namespace;
  const name = encodeURIComponent(stored.object.metadata.name ?? '');
  return ns === undefined || ns === ''
    ? `#/cluster/${stored.resource.key}/${name}`
    : `#/namespaces/${encodeURIComponent(ns)}/${stored.resource.key}/${name}`;
}

class Builder {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges = new Map<string, GraphEdge>();
  truncated = false;

  readonly store: ObjectStore;
  readonly now: number;

  constructor(store: ObjectStore, now: number) {
    this.store = store;
    this.now = now;
  }

  full(): boolean {
    if (this.nodes.size < MAX_NODES) return false;
    this.truncated = true;
    return true;
  }

  addObject(stored: StoredObject, role: NodeRole): string {
    const id = stored.object.metadata.uid ?? '';
    if (!this.nodes.has(id)) {
      const state = nodeState(this.store, stored, this.now);
      const meta = stored.object.metadata;
      this.nodes.set(id, {
        id,
        role,
        kind: stored.resource.kind,
        name: meta.name ?? '',
        ...(meta.namespace === undefined ? {} : { namespace: meta.namespace }),
        href: hrefOf(stored),
        state,
        words: describeState(state),
      });
    }
    return id;
  }

  addEdge(edge: GraphEdge): void {
    this.edges.set(edge.id, edge);
  }

  /** Owners, recursively: virtual nodes stand for owners that cannot be found. */
  walkOwners(stored: StoredObject, id: string, seen: Set<string>): void {
    for (const ref of stored.object.metadata.ownerReferences ?? []) {
      if (this.full()) return;
      const owner = resolveOwner(this.store, stored, ref);
      const block = ref.blockOwnerDeletion === true;
      if (isReferenceIssue(owner)) {
        const vid = `virtual:${ref.uid}`;
        this.nodes.set(vid, {
          id: vid,
          role: 'virtual',
          kind: ref.kind,
          name: ref.name,
          words: [owner.kind === 'virtual' ? 'virtual: owner never seen' : `${owner.kind} reference`, owner.message],
        });
        this.addEdge({ id: `own:${vid}:${id}`, source: vid, target: id, type: 'owner', blockOwnerDeletion: block });
        continue;
      }
      const ownerId = this.addObject(owner, 'owner');
      this.addEdge({ id: `own:${ownerId}:${id}`, source: ownerId, target: id, type: 'owner', blockOwnerDeletion: block });
      if (!seen.has(ownerId)) {
        seen.add(ownerId);
        this.walkOwners(owner, ownerId, seen);
      }
    }
  }

  /** Dependents, breadth first; many of one kind under one owner become a group node. */
  walkDependents(root: StoredObject): void {
    const queue: StoredObject[] = [root];
    const seen = new Set<string>([root.object.metadata.uid ?? '']);
    while (queue.length > 0 && !this.full()) {
      const owner = queue.shift() as StoredObject;
      const ownerId = owner.object.metadata.uid ?? '';
      const byKind = new Map<string, StoredObject[]>();
      for (const d of this.store.dependentsOf(ownerId)) {
        const list = byKind.get(d.resource.kind);
        if (list === undefined) byKind.set(d.resource.kind, [d]);
        else list.push(d);
      }
      for (const [kind, dependents] of byKind) {
        if (dependents.length > GROUP_THRESHOLD) {
          this.addGroup(ownerId, kind, dependents);
          continue;
        }
        for (const d of dependents) {
          const id = this.addObject(d, 'dependent');
          const ref = d.object.metadata.ownerReferences?.find((r) => r.uid === ownerId);
          this.addEdge({
            id: `own:${ownerId}:${id}`,
            source: ownerId,
            target: id,
            type: 'owner',
            blockOwnerDeletion: ref?.blockOwnerDeletion === true,
          });
          if (!seen.has(id)) {
            seen.add(id);
            queue.push(d);
          }
        }
      }
    }
  }

  addGroup(ownerId: string, kind: string, members: readonly StoredObject[]): void {
    const id = `group:${ownerId}:${kind}`;
    const terminating = members.filter((m) => m.object.metadata.deletionTimestamp !== undefined).length;
    const withFinalizers = members.filter((m) => (m.object.metadata.finalizers?.length ?? 0) > 0).length;
    const words = [`${terminating} terminating`, `${withFinalizers} held by finalizers`];
    this.nodes.set(id, {
      id,
      role: 'group',
      kind,
      name: `× ${members.length}`,
      words,
      group: { count: members.length, terminating, withFinalizers },
    });
    this.addEdge({ id: `own:${ownerId}:${id}`, source: ownerId, target: id, type: 'owner' });
  }

  /** Relations of the ownership graph's objects, and of what they bring in, up to RELATION_HOPS away. */
  addRelations(enabled: ReadonlySet<Relation>): void {
    if (enabled.size === 0) return;
    let frontier = [...this.nodes.values()].filter((n) => n.role !== 'group' && n.role !== 'virtual').map((n) => n.id);
    for (let hop = 0; hop < RELATION_HOPS && frontier.length > 0; hop++) {
      const next: string[] = [];
      for (const nodeId of frontier) {
        const stored = this.store.get(nodeId);
        if (stored === undefined) continue;
        for (const r of relatedTo(this.store, stored, enabled)) {
          if (this.full()) return;
          let id: string;
          if ('resource' in r.target) {
            const known = this.nodes.has(r.target.object.metadata.uid ?? '');
            id = this.addObject(r.target, 'related');
            if (!known) next.push(id);
          } else {
            id = `named:${r.target.kind}:${r.target.namespace ?? ''}:${r.target.name}`;
            if (!this.nodes.has(id))
              this.nodes.set(id, { id, role: 'related', kind: r.target.kind, name: r.target.name, words: ['not found in the cluster'] });
          }
          const source = r.relation === 'events' ? id : nodeId;
          const target = r.relation === 'events' ? nodeId : id;
          this.addEdge({ id: `rel:${r.relation}:${nodeId}:${id}`, source, target, type: r.relation, label: r.label });
        }
      }
      frontier = next;
    }
  }
}

/** The object's owners (up) and dependents (down), with the enabled relations around them. */
export function buildGraph(store: ObjectStore, target: StoredObject, relations: ReadonlySet<Relation>, now: number): OwnershipGraph {
  const builder = new Builder(store, now);
  const id = builder.addObject(target, 'target');
  builder.walkOwners(target, id, new Set([id]));
  builder.walkDependents(target);
  builder.addRelations(relations);
  return { nodes: [...builder.nodes.values()], edges: [...builder.edges.values()], truncated: builder.truncated };
}
