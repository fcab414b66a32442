import { qualifiedResource } from '../api/resource-info.js';
import type { OwnerReference } from '../api/types.js';
import { type Entry, type ObjectRef, refFromOwnerReference } from './object-ref.js';
import { isDeletingDependents, type ReferenceProblemKind, referenceProblems } from './owner-references.js';
import type { ClusterSnapshot, ListFailure } from './snapshot.js';

/** The `cascade tree -o json` document (version 1). */
export interface CascadeTree {
  readonly kind: 'CascadeTree';
  readonly version: 1;
  /** "dependents": the root's dependents, recursively; "owners": its owners, recursively (--owners). */
  readonly direction: 'dependents' | 'owners';
  readonly root: TreeNode;
  readonly incomplete: readonly ListFailure[];
}

export interface DeletionState {
  readonly terminating: boolean;
  readonly deletionTimestamp?: string;
  readonly finalizers: readonly string[];
  /** Terminating with foregroundDeletion: waiting for its blocking dependents (R4.31). */
  readonly deletingDependents: boolean;
}

/** The owner reference joining a node to its parent (always the dependent's reference to the owner). */
export interface TreeLink {
  readonly controller: boolean;
  readonly blockOwnerDeletion: boolean;
  /** The reference blocks the owner right now: blockOwnerDeletion on an owner deleting its dependents. */
  readonly blocking: boolean;
  /** Why the collector does not treat this reference as pointing at the owner shown. */
  readonly problem?: ReferenceProblemKind;
}

export interface TreeNode {
  readonly object: ObjectRef;
  /** Absent for an owner that does not exist (see link.problem). */
  readonly state?: DeletionState;
  readonly link?: TreeLink;
  /** Shown already elsewhere in the tree (several owners, or a cycle): its subtree is not repeated. */
  readonly repeated?: true;
  readonly children: readonly TreeNode[];
}

function stateOf(entry: Entry): DeletionState {
  const meta = entry.object.metadata;
  return {
    terminating: meta.deletionTimestamp !== undefined,
    ...(meta.deletionTimestamp === undefined ? {} : { deletionTimestamp: meta.deletionTimestamp }),
    finalizers: meta.finalizers ?? [],
    deletingDependents: isDeletingDependents(entry.object),
  };
}

function byName(a: Entry, b: Entry): number {
  const ka = [a.ref.resource, a.ref.namespace ?? '', a.ref.name].join('\u0000');
  const kb = [b.ref.resource, b.ref.namespace ?? '', b.ref.name].join('\u0000');
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

class TreeBuilder {
  private readonly snapshot: ClusterSnapshot;
  private readonly expanded = new Set<string>();

  constructor(snapshot: ClusterSnapshot) {
    this.snapshot = snapshot;
  }

  private async link(dependent: Entry, reference: OwnerReference, owner: Entry | undefined): Promise<TreeLink> {
    const problem = (await referenceProblems(dependent, this.snapshot)).find((p) => p.owner.uid === reference.uid)?.problem;
    return {
      controller: reference.controller === true,
      blockOwnerDeletion: reference.blockOwnerDeletion === true,
      blocking: reference.blockOwnerDeletion === true && owner !== undefined && isDeletingDependents(owner.object),
      ...(problem === undefined ? {} : { problem }),
    };
  }

  async dependents(entry: Entry, link?: TreeLink): Promise<TreeNode> {
    const uid = entry.ref.uid;
    const base = { object: entry.ref, state: stateOf(entry), ...(link === undefined ? {} : { link }) };
    if (this.expanded.has(uid)) return { ...base, repeated: true, children: [] };
    this.expanded.add(uid);
    const children: TreeNode[] = [];
    for (const dependent of [...this.snapshot.dependentsOf(uid)].sort(byName)) {
      for (const reference of (dependent.object.metadata.ownerReferences ?? []).filter((r) => r.uid === uid)) {
        children.push(await this.dependents(dependent, await this.link(dependent, reference, entry)));
      }
    }
    return { ...base, children };
  }

  async owners(entry: Entry, link?: TreeLink): Promise<TreeNode> {
    const uid = entry.ref.uid;
    const base = { object: entry.ref, state: stateOf(entry), ...(link === undefined ? {} : { link }) };
    if (this.expanded.has(uid)) return { ...base, repeated: true, children: [] };
    this.expanded.add(uid);
    const children: TreeNode[] = [];
    for (const reference of entry.object.metadata.ownerReferences ?? []) {
      const info = this.snapshot.resourceFor(reference.apiVersion, reference.kind);
      const resolved = info === undefined || (!entry.info.namespaced && info.namespaced) ? undefined : await this.snapshot.lookup(info, entry.ref.namespace, reference.name);
      const owner = resolved !== undefined && resolved.ref.uid === reference.uid ? resolved : undefined;
      const ownerLink = await this.link(entry, reference, owner);
      if (owner !== undefined) {
        children.push(await this.owners(owner, ownerLink));
        continue;
      }
      const named = this.snapshot.resourceOfReference(reference);
      const object = refFromOwnerReference(reference, named === undefined ? '' : qualifiedResource(named), named?.namespaced === true ? entry.ref.namespace : undefined);
      children.push({ object, link: ownerLink, children: [] });
    }
    return { ...base, children };
  }
}

/** The ownership tree below `root` (or above it, with `direction: 'owners'`) across every listed resource. */
export async function buildTree(snapshot: ClusterSnapshot, root: Entry, direction: 'dependents' | 'owners'): Promise<CascadeTree> {
  const current = snapshot.byUid(root.ref.uid) ?? root;
  const builder = new TreeBuilder(snapshot);
  return {
    kind: 'CascadeTree',
    version: 1,
    direction,
    root: direction === 'dependents' ? await builder.dependents(current) : await builder.owners(current),
    incomplete: snapshot.failures,
  };
}
