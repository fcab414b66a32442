import type { ObjectStore, StoredObject } from './object-store.js';
import { describeState, isReferenceIssue, type NodeState, nodeState, resolveOwner } from './node-state.js';
import { type Relation, relatedTo } from './relations.js';

/** More dependents of one kind under one owner than this become a single group node. */
export const GROUP_THRESHOLD = 12;
/**
 * The nodes dagre lays out (everything but the members of expanded groups). Its layered layout is super-linear
 * in practice and the page lays out again on every change; docs/ui/README.md ("Large graphs") has the measurements
 * this bound comes from.
 */
export const MAX_LAYOUT_NODES = 400;
/** Members of expanded groups sit in a grid under their group (linear layout), so their bound is the DOM's. */
export const MAX_MEMBER_NODES = 5_000;
/** How many members an expanded group shows at first, and how many more each "show more" adds. */
export const GROUP_PAGE = 200;
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
  readonly group?: {
    readonly count: number;
    readonly terminating: number;
    readonly withFinalizers: number;
    /** Members on screen: 0 while collapsed. */
    readonly shown: number;
  };
  /** The expanded group (its id) this node is drawn under, in a grid, instead of by the layered layout. */
  readonly memberOf?: string;
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
  /** The walk stopped at MAX_LAYOUT_NODES or MAX_MEMBER_NODES. */
  readonly truncated: boolean;
}

/** Expanded groups by id, with how many members each shows (a multiple of GROUP_PAGE). */
export type ExpandedGroups = ReadonlyMap<string, number>;

export function groupId(ownerUid: string, kind: string): string {
  return `group:${ownerUid}:${kind}`;
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
  private members = 0;

  readonly store: ObjectStore;
  readonly now: number;
  readonly expanded: ExpandedGroups;

  constructor(store: ObjectStore, now: number, expanded: ExpandedGroups) {
    this.store = store;
    this.now = now;
    this.expanded = expanded;
  }

  full(): boolean {
    if (this.nodes.size - this.members < MAX_LAYOUT_NODES) return false;
    this.truncated = true;
    return true;
  }

  addObject(stored: StoredObject, role: NodeRole, memberOf?: string): string {
    const id = stored.object.metadata.uid ?? '';
    if (!this.nodes.has(id)) {
      if (memberOf !== undefined) this.members++;
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
        ...(memberOf === undefined ? {} : { memberOf }),
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
          for (const member of this.addGroup(ownerId, kind, dependents)) {
            const id = member.object.metadata.uid ?? '';
            if (!seen.has(id)) {
              seen.add(id);
              queue.push(member);
            }
          }
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

  /**
   * One node for many dependents of one kind; when expanded, its first members by name (a page at a time) under it,
   * which are returned for the walk to continue below them. Counts and members follow the store on every build.
   */
  addGroup(ownerId: string, kind: string, members: readonly StoredObject[]): StoredObject[] {
    const id = groupId(ownerId, kind);
    const terminating = members.filter((m) => m.object.metadata.deletionTimestamp !== undefined).length;
    const withFinalizers = members.filter((m) => (m.object.metadata.finalizers?.length ?? 0) > 0).length;
    const wanted = Math.min(this.expanded.get(id) ?? 0, members.length, MAX_MEMBER_NODES - this.members);
    if (wanted < Math.min(this.expanded.get(id) ?? 0, members.length)) this.truncated = true;
    const shown = [...members].sort(byName).slice(0, Math.max(wanted, 0));
    const words = [`${terminating} terminating`, `${withFinalizers} held by finalizers`];
    if (this.expanded.has(id)) words.push(`showing ${shown.length} of ${members.length}`);
    this.nodes.set(id, {
      id,
      role: 'group',
      kind,
      name: `× ${members.length}`,
      words,
      group: { count: members.length, terminating, withFinalizers, shown: shown.length },
    });
    this.addEdge({ id: `own:${ownerId}:${id}`, source: ownerId, target: id, type: 'owner' });
    // Members are drawn in a grid right under their group: no edge each, the grid says whose they are.
    for (const member of shown) this.addObject(member, 'dependent', id);
    return shown;
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

function byName(a: StoredObject, b: StoredObject): number {
  const x = a.object.metadata.name ?? '';
  const y = b.object.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The object's owners (up) and dependents (down), with the enabled relations around them. */
export function buildGraph(
  store: ObjectStore,
  target: StoredObject,
  relations: ReadonlySet<Relation>,
  now: number,
  expanded: ExpandedGroups = new Map(),
): OwnershipGraph {
  const builder = new Builder(store, now, expanded);
  const id = builder.addObject(target, 'target');
  builder.walkOwners(target, id, new Set([id]));
  builder.walkDependents(target);
  builder.addRelations(relations);
  return { nodes: [...builder.nodes.values()], edges: [...builder.edges.values()], truncated: builder.truncated };
}
