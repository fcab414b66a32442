import { StatusError } from '../../api/errors.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../api/finalizers.js';
import type { KubeObject, OwnerReference } from '../../api/types.js';
import type { PropagationPolicy } from '../../api/delete-options.js';
import type { ItemResult, WorkerQueue } from '../../workqueue/worker.js';
import type { GraphNode, ObjectIdentity } from './graph.js';
import type { GraphBuilder } from './graph-builder.js';
import { type GcOperations, NamespacedOwnerOfClusterScopedObjectError } from './operations.js';
import { ORPHAN_TIMEOUT_REASON, type OrphanAcknowledgement } from './orphan-acknowledgement.js';

/** The queue the workers take nodes from, which they also add to (a foreground owner's blocking dependents). */
export type NodeWorkQueue = WorkerQueue<GraphNode> & { add(node: GraphNode): void };

interface ClassifiedReferences {
  readonly solid: OwnerReference[];
  readonly dangling: OwnerReference[];
  readonly waiting: OwnerReference[];
}

/** The result of most items, settled once. */
const FORGET: Promise<ItemResult> = Promise.resolve('forget');

/** How long a still-virtual owner waits before it is checked again (R4.33). */
const VIRTUAL_RECHECK_MS = 100;

/**
 * R4.33: a node no informer has observed is checked again even when there was nothing to do, until an informer
 * observes it or it proves absent, or a dependent of an unwatched owner is never collected once the owner goes.
 * Its live object may stay for good, so with the queue's backoff, as Kubernetes requeues it.
 */
function recheckIfVirtual(node: GraphNode, result: ItemResult): ItemResult {
  return node.virtual && result === 'forget' ? 'requeue' : result;
}

/**
 * The collector's workers (garbagecollector.go): attemptToDelete decides, from live reads, whether a dependent
 * lost all its owners; attemptToOrphan strips references before an orphaning owner goes. Only the builder writes
 * the graph; workers read it and report verified-absent objects back through `builder.process`.
 */
export class GarbageCollectorWorkers {
  private readonly builder: GraphBuilder;
  private readonly ops: GcOperations;
  private readonly strictBlockOwnerDeletion: boolean;
  private readonly now: () => Date;
  /** Extension A (--orphan-waits-for-observed-generation); undefined: Kubernetes' behaviour. */
  private readonly orphanAcknowledgement: OrphanAcknowledgement | undefined;
  readonly deletions = { count: 0 };

  constructor(
    builder: GraphBuilder,
    ops: GcOperations,
    options: { strictBlockOwnerDeletion?: boolean; now?: () => Date; orphanAcknowledgement?: OrphanAcknowledgement } = {},
  ) {
    this.builder = builder;
    this.ops = ops;
    this.strictBlockOwnerDeletion = options.strictBlockOwnerDeletion === true;
    this.now = options.now ?? (() => new Date());
    this.orphanAcknowledgement = options.orphanAcknowledgement;
  }

  /**
   * attemptToDeleteItem (R4.21–R4.33). Not an async function itself: a cascade passes here once per dependent and
   * nearly always settles it through deleteObservedOrphan, so the live path's larger frame is entered only when
   * that does not apply.
   */
  attemptToDeleteItem(node: GraphNode, attemptToDelete: NodeWorkQueue): Promise<ItemResult> {
    if (node.virtual) {
      // R4.21: the observed object (if any) is handled through its own events.
      const current = this.builder.graph.get(node.identity.uid);
      if (current !== node || !current.virtual) return FORGET;
    }
    if (node.beingDeleted && !node.deletingDependents) return FORGET;
    return this.deleteObservedOrphan(node, attemptToDelete) || this.attemptToDeleteLive(node, attemptToDelete);
  }

  /** attemptToDeleteItem's decision from live reads of the item and its owners. */
  private async attemptToDeleteLive(node: GraphNode, attemptToDelete: NodeWorkQueue): Promise<ItemResult> {
    const identity = node.identity;
    let latest: KubeObject | undefined;
    try {
      latest = await this.ops.getObject(identity);
    } catch (err) {
      // R4.26c: a virtual namespaced owner known only from cluster-scoped dependents cannot be looked up; it is
      // neither verified absent nor retried, so those dependents are never collected through it.
      if (err instanceof NamespacedOwnerOfClusterScopedObjectError) return 'forget';
      throw err;
    }
    if (latest === undefined || latest.metadata.uid !== identity.uid) {
      this.builder.process({ type: 'virtual-delete', identity });
      return 'forget';
    }
    if (node.deletingDependents || isDeletingDependents(latest)) {
      return recheckIfVirtual(node, await this.processDeletingDependents(node, attemptToDelete));
    }
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return recheckIfVirtual(node, 'forget');
    const classified = await this.classifyReferences(identity, latest, refs);
    if (classified === 'never') return recheckIfVirtual(node, 'forget');
    const { solid, dangling, waiting } = classified;
    if (solid.length > 0) {
      // D1: Kubernetes drops the reference to a waiting owner even when it blocks, so the owner finishes while the
      // dependent lives on. With --strict-block-owner-deletion a blocking reference is kept and the owner waits.
      const held = this.strictBlockOwnerDeletion ? waiting.filter((r) => r.blockOwnerDeletion === true) : [];
      const pruned = [...dangling, ...waiting.filter((r) => !held.includes(r))];
      if (pruned.length > 0)
        await this.ops.removeOwnerReferences(
          identity,
          pruned.map((r) => r.uid),
          latest,
        );
      for (const ref of held) await this.reportHeldOwner(identity, ref, solid);
    } else if (waiting.length > 0 && node.dependents.size > 0) {
      // R4.28: a dependent that is itself waiting on us would deadlock; stop our references from blocking.
      if ([...node.dependents].some((d) => d.deletingDependents)) await this.ops.unblockOwnerReferences(identity, latest);
      await this.deleteItem(identity, latest, 'Foreground');
    } else {
      await this.deleteItem(identity, latest, policyFromFinalizers(latest));
    }
    return node.virtual ? { requeueAfterMs: VIRTUAL_RECHECK_MS } : 'forget';
  }

  /**
   * A cascade's common case, decided without a live read of the item: every owner reference in the state the
   * informer delivered names an owner already verified absent (R4.11), so that state is garbage. The DELETE is
   * conditional on exactly that state (uid and resourceVersion): if the item changed since, say gaining an owner,
   * it fails with a conflict and the live path decides instead. False at once, without a promise, when the fast
   * path does not apply (the check runs once per item of every cascade).
   */
  private deleteObservedOrphan(node: GraphNode, attemptToDelete: NodeWorkQueue): Promise<ItemResult> | false {
    const observed = node.observed;
    if (node.virtual || node.deletingDependents || observed === undefined || isDeletingDependents(observed)) return false;
    const resourceVersion = observed.metadata.resourceVersion;
    const refs = observed.metadata.ownerReferences;
    if (resourceVersion === undefined || refs === undefined || refs.length === 0) return false;
    for (const ref of refs) if (!this.knownAbsent(ref, node.identity.namespace)) return false;
    return this.deleteOrphan(node, resourceVersion, policyFromFinalizers(observed), refs, attemptToDelete);
  }

  private async deleteOrphan(
    node: GraphNode,
    resourceVersion: string,
    policy: PropagationPolicy,
    owners: readonly OwnerReference[],
    attemptToDelete: NodeWorkQueue,
  ): Promise<ItemResult> {
    const identity = node.identity;
    try {
      await this.ops.deleteObject(identity, resourceVersion, policy, owners);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (err.code === 409) return this.attemptToDeleteLive(node, attemptToDelete);
      if (err.code !== 404) throw err;
      this.builder.process({ type: 'virtual-delete', identity });
      return 'forget';
    }
    this.deletions.count++;
    return 'forget';
  }

  /** Whether the owner a reference names (cluster-scoped, or in the dependent's namespace) was verified absent. */
  private knownAbsent(ref: OwnerReference, dependentNamespace: string): boolean {
    return this.builder.absentOwners.hasReference(ref, dependentNamespace);
  }

  /** Tells the waiting owner, through an Event, which dependent holds it and why it is not deleted. */
  private async reportHeldOwner(dependent: ObjectIdentity, ref: OwnerReference, solid: readonly OwnerReference[]): Promise<void> {
    const owner: ObjectIdentity = {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: ref.name,
      uid: ref.uid,
      namespace: dependent.namespace,
    };
    const others = solid.map((r) => `${r.kind}/${r.name}`).join(', ');
    await this.ops.recordEvent(
      owner,
      'Warning',
      'ForegroundDeletionBlocked',
      `dependent ${dependent.kind}/${dependent.name} blocks the deletion of this object and is kept by its other owners (${others}); the deletion waits until it is gone (--strict-block-owner-deletion)`,
      this.now(),
    );
  }

  /** R4.30: preconditioned delete; a lost race with an unchanged ownership is retried once without the RV. */
  private async deleteItem(identity: ObjectIdentity, latest: KubeObject, policy: PropagationPolicy): Promise<void> {
    try {
      await this.ops.deleteObject(identity, latest.metadata.resourceVersion, policy, latest.metadata.ownerReferences);
      this.deletions.count++;
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (err.code === 404) {
        this.builder.process({ type: 'virtual-delete', identity });
        return;
      }
      if (err.code !== 409) throw err;
      const again = await this.ops.getObject(identity);
      if (again === undefined || again.metadata.uid !== identity.uid) {
        this.builder.process({ type: 'virtual-delete', identity });
        return;
      }
      if (JSON.stringify(again.metadata.ownerReferences ?? []) !== JSON.stringify(latest.metadata.ownerReferences ?? [])) throw err;
      await this.ops.deleteObject(identity, undefined, policy, latest.metadata.ownerReferences);
      this.deletions.count++;
    }
  }

  /** classifyReferences (R4.26): communicates with the server for every owner not known absent. */
  private async classifyReferences(
    item: ObjectIdentity,
    latest: KubeObject,
    refs: readonly OwnerReference[],
  ): Promise<ClassifiedReferences | 'never'> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    const itemNamespaced = (latest.metadata.namespace ?? '') !== '';
    for (const ref of refs) {
      if (this.knownAbsent(ref, item.namespace)) {
        dangling.push(ref);
        continue;
      }
      const clusterKey: ObjectIdentity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: '' };
      const namespacedKey: ObjectIdentity = { ...clusterKey, namespace: item.namespace };
      const info = this.ops.resourceFor(ref.apiVersion, ref.kind);
      // R4.26c: a cluster-scoped object cannot be owned by a namespaced one; never collected through this path.
      if (!itemNamespaced && info.namespaced) return 'never';
      const ownerId = info.namespaced ? namespacedKey : clusterKey;
      const owner = await this.ops.getObject(ownerId);
      if (owner === undefined || owner.metadata.uid !== ref.uid) {
        this.builder.absentOwners.add(ownerId);
        dangling.push(ref);
      } else if (isDeletingDependents(owner)) {
        waiting.push(ref);
      } else {
        solid.push(ref);
      }
    }
    return { solid, dangling, waiting };
  }

  /** R4.31: a foreground owner finishes once no dependent blocks it. */
  private async processDeletingDependents(node: GraphNode, attemptToDelete: NodeWorkQueue): Promise<ItemResult> {
    const blocking = node.blockingDependents();
    if (blocking.length === 0) {
      await this.ops.removeFinalizer(node.identity, FINALIZER_FOREGROUND);
      return 'forget';
    }
    for (const dependent of blocking) if (!dependent.deletingDependents) attemptToDelete.add(dependent);
    return 'forget';
  }

  /** attemptToOrphan (R4.34–R4.35): strip this owner from every dependent, then drop the orphan finalizer. */
  async attemptToOrphanItem(node: GraphNode): Promise<ItemResult> {
    const held = await this.awaitAcknowledgement(node);
    if (held !== undefined) return held;
    const dependents = [...node.dependents];
    const failures: unknown[] = [];
    await Promise.all(
      dependents.map(async (dependent) => {
        try {
          await this.ops.removeOwnerReferences(dependent.identity, [node.identity.uid]);
        } catch (err) {
          if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
          failures.push(err);
        }
      }),
    );
    if (failures.length > 0) throw failures[0];
    await this.ops.removeFinalizer(node.identity, FINALIZER_ORPHAN);
    return 'forget';
  }

  /**
   * Extension A (R12.167–R12.171): holds the orphaning while the owner's controller has not acknowledged the
   * deletion. Undefined: go ahead. An owner observed without a generation never waits, so needs no live read.
   */
  private async awaitAcknowledgement(node: GraphNode): Promise<ItemResult | undefined> {
    const waiter = this.orphanAcknowledgement;
    if (waiter === undefined || (node.observed !== undefined && (node.observed.metadata.generation ?? 0) <= 0)) return undefined;
    const verdict = waiter.verdict(node.identity, await this.ops.getObject(node.identity));
    if (verdict.kind === 'proceed') return undefined;
    if (verdict.kind === 'cancelled') return 'forget';
    if (verdict.kind === 'wait') return { requeueAfterMs: verdict.recheckAfterMs };
    await this.ops.recordEvent(node.identity, 'Warning', ORPHAN_TIMEOUT_REASON, verdict.message, this.now());
    return undefined;
  }
}

function isDeletingDependents(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND);
}

/** R4.29: the item's own GC finalizers decide how it is deleted. */
export function policyFromFinalizers(obj: KubeObject): PropagationPolicy {
  const finalizers = obj.metadata.finalizers;
  if (finalizers === undefined) return 'Background';
  if (finalizers.includes(FINALIZER_ORPHAN)) return 'Orphan';
  if (finalizers.includes(FINALIZER_FOREGROUND)) return 'Foreground';
  return 'Background';
}
