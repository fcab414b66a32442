import { StatusError } from '../../api/errors.js';
import { FINALIZER_FOREGROUND } from '../../api/finalizers.js';
import { FINALIZER_POPULATING_GRACEFUL_DELETION, propagatedGrace } from '../../registry/grace-propagation.js';
import type { ItemResult } from '../../workqueue/worker.js';
import { policyFromFinalizers } from './garbage-collector.js';
import type { Graph, GraphNode, ObjectIdentity } from './graph.js';
import type { GraphChange } from './graph-builder.js';
import type { GcOperations } from './operations.js';

/** Where the propagator queues the uids of owners to process. */
export interface UidQueue {
  add(uid: string): void;
}

/**
 * Extension B's collector side (R12.175–R12.177): every owner carrying the `populating graceful deletion`
 * finalizer has its dependents deleted with the owner's grace period, then loses the finalizer. Owners are found
 * from the collector's informer events; dependents from its graph, whose later events bring an owner back (a
 * dependent created meanwhile, R12.176). Only owners carrying the finalizer are remembered.
 */
export class GracePropagator {
  private readonly owners = new Map<string, ObjectIdentity>();
  private readonly graph: Graph;
  private readonly ops: GcOperations;
  private readonly queue: UidQueue;

  constructor(graph: Graph, ops: GcOperations, queue: UidQueue) {
    this.graph = graph;
    this.ops = ops;
    this.queue = queue;
  }

  /** An informer event, after the graph builder applied it. */
  observe(change: GraphChange): void {
    if (change.type === 'virtual-delete') {
      this.owners.delete(change.identity.uid);
      return;
    }
    const meta = change.object.metadata;
    const uid = meta.uid ?? '';
    if (change.type !== 'delete' && (meta.finalizers ?? []).includes(FINALIZER_POPULATING_GRACEFUL_DELETION)) {
      if (!this.owners.has(uid)) {
        this.owners.set(uid, {
          apiVersion: change.coordinates.apiVersion,
          kind: change.coordinates.kind,
          name: meta.name ?? '',
          namespace: meta.namespace ?? '',
          uid,
        });
        this.queue.add(uid);
      }
    } else {
      this.owners.delete(uid);
    }
    for (const ref of meta.ownerReferences ?? []) if (this.owners.has(ref.uid)) this.queue.add(ref.uid);
  }

  /** R12.176–R12.177 for one owner. */
  async process(uid: string): Promise<ItemResult> {
    const identity = this.owners.get(uid);
    if (identity === undefined) return 'forget';
    const live = await this.ops.getObject(identity);
    if (
      live === undefined ||
      live.metadata.uid !== uid ||
      !(live.metadata.finalizers ?? []).includes(FINALIZER_POPULATING_GRACEFUL_DELETION)
    ) {
      this.owners.delete(uid);
      return 'forget';
    }
    const grace = propagatedGrace(live);
    const foreground = (live.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND);
    const dependents = grace === undefined ? [] : [...(this.graph.get(uid)?.dependents ?? [])];
    await Promise.all(
      dependents
        .filter((d) => !this.satisfied(d, uid, grace ?? 0))
        .map(async (d) => {
          try {
            const policy = foreground || d.observed === undefined ? 'Foreground' : policyFromFinalizers(d.observed);
            await this.ops.deleteObject(d.identity, undefined, policy, d.owners, grace);
          } catch (err) {
            // Gone, or replaced by another object of that name (the uid precondition): satisfied either way.
            if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
          }
        }),
    );
    await this.ops.removeFinalizer(identity, FINALIZER_POPULATING_GRACEFUL_DELETION);
    this.owners.delete(uid);
    return 'forget';
  }

  /** R12.175: terminating (a pod within the grace), or kept by another owner that is not going. */
  private satisfied(dependent: GraphNode, ownerUid: string, grace: number): boolean {
    const observed = dependent.observed;
    if (dependent.virtual || observed === undefined) return true;
    const meta = observed.metadata;
    if (meta.deletionTimestamp !== undefined) {
      const isPod = dependent.identity.kind === 'Pod' && dependent.identity.apiVersion === 'v1';
      if (!isPod || (meta.deletionGracePeriodSeconds ?? 0) <= grace) return true;
    }
    return dependent.owners.some((ref) => {
      if (ref.uid === ownerUid) return false;
      const other = this.graph.get(ref.uid);
      return other !== undefined && !other.virtual && !other.beingDeleted;
    });
  }
}
