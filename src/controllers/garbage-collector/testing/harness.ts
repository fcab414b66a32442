import assert from 'node:assert/strict';
import type { ResourceInfo } from '../../../api/resource-info.js';
import type { KubeObject } from '../../../api/types.js';
import { BUILTIN_RESOURCES } from '../../../kinds/index.js';
import { runWorker } from '../../../workqueue/worker.js';
import { GarbageCollectorWorkers } from '../garbage-collector.js';
import { OrphanAcknowledgement, type OrphanAcknowledgementOptions } from '../orphan-acknowledgement.js';
import type { GraphNode, ObjectIdentity } from '../graph.js';
import { type GraphChange, GraphBuilder } from '../graph-builder.js';
import { ownerRefInvalidNamespaceRecorder } from '../invalid-reference-event.js';
import { GcOperations } from '../operations.js';
import { FakeGcClient } from './fake-client.js';
import { addEvent, deleteEvent, describeChange, describeIdentity, describeNode, updateEvent } from './fixtures.js';
import { graphInvariantViolations } from './invariants.js';
import { type QueuedItem, StepQueue } from './step-queue.js';

/** A fixed clock for the collector's event timestamps. */
const NOW = new Date('2024-01-01T00:00:00Z');

/**
 * The graph builder as wired in the controller, except that changes reported by workers (virtual deletes) wait
 * in a queue until a step applies them: Kubernetes' graphChanges queue. In Cascade a worker applies them as soon
 * as its request returns; informer events may be applied while that request is in flight, so every order a step
 * test can produce by interleaving the two is one the controller can meet.
 */
class SteppedGraphBuilder extends GraphBuilder {
  readonly pending: GraphChange[] = [];

  override process(change: GraphChange): void {
    this.pending.push(change);
  }

  apply(change: GraphChange): void {
    super.process(change);
  }
}

export interface HarnessOptions {
  /** Resources served besides the built-in ones (e.g. a custom resource, which takes no strategic merge patch). */
  readonly extraResources?: readonly ResourceInfo[];
  readonly strictBlockOwnerDeletion?: boolean;
  /** Extension A's wait (R12.167); absent: Kubernetes' orphaning. */
  readonly orphanAcknowledgement?: OrphanAcknowledgementOptions;
}

/**
 * The expected state after a step. Every field is compared; an omitted one means "empty". Lists of nodes and
 * queue entries use the lines `node(...)` and `requeued(...)` build. Actions, events and worker errors are
 * those since the previous assertion.
 */
export interface ExpectedState {
  /** Graph nodes, in any order. */
  readonly graph?: readonly string[];
  /** attemptToDelete, in the order workers will take it. */
  readonly attemptToDelete?: readonly string[];
  readonly attemptToOrphan?: readonly string[];
  /** Graph changes waiting (virtual deletes from workers, events inserted by the test), in order. */
  readonly graphChanges?: readonly string[];
  /** Identities verified absent, as `describeIdentity` lines, in any order. */
  readonly absentOwners?: readonly string[];
  /** Calls to the API, in order. */
  readonly actions?: readonly string[];
  /** Events the collector recorded, in order. */
  readonly events?: readonly string[];
  /** Failures the worker loop reported (the item was requeued with backoff), as "node line: message". */
  readonly errors?: readonly string[];
}

/**
 * Cascade's collector driven one step at a time: the real graph builder, workers and worker loop, over a fake
 * client that records every call and answers from a store the test fills (or from scripted answers), with the
 * queues held still between steps. Informer events are fed by the test in exactly the order it wants to examine.
 */
export class GcHarness {
  readonly client: FakeGcClient;
  readonly attemptToDelete = new StepQueue();
  readonly attemptToOrphan = new StepQueue();
  private readonly builder: SteppedGraphBuilder;
  private readonly ops: GcOperations;
  private readonly workers: GarbageCollectorWorkers;
  /** The informer's view: per uid, the last object delivered, or 'deleted'. */
  private readonly informer = new Map<string, KubeObject | 'deleted'>();
  private errors: string[] = [];

  constructor(options: HarnessOptions = {}) {
    const resources = [...BUILTIN_RESOURCES, ...(options.extraResources ?? [])];
    this.client = new FakeGcClient(resources);
    this.ops = new GcOperations(this.client);
    this.ops.setResources(resources);
    const log = (message: string): void => {
      this.errors.push(message);
    };
    this.builder = new SteppedGraphBuilder(
      this.attemptToDelete,
      this.attemptToOrphan,
      ownerRefInvalidNamespaceRecorder(this.ops, () => NOW, log),
    );
    this.workers = new GarbageCollectorWorkers(this.builder, this.ops, {
      strictBlockOwnerDeletion: options.strictBlockOwnerDeletion,
      now: () => NOW,
      orphanAcknowledgement:
        options.orphanAcknowledgement === undefined ? undefined : new OrphanAcknowledgement(options.orphanAcknowledgement),
    });
  }

  get graph() {
    return this.builder.graph;
  }

  get deletions(): number {
    return this.workers.deletions.count;
  }

  /** The node for a uid; throws when there is none (a test mistake or a finding). */
  nodeOf(id: Pick<ObjectIdentity, 'uid'>): GraphNode {
    const found = this.builder.graph.get(id.uid);
    if (found === undefined) throw new Error(`no graph node for uid ${id.uid}`);
    return found;
  }

  /** An informer event reaches the graph builder now. */
  processEvent(change: GraphChange): void {
    if (change.type === 'virtual-delete') throw new Error('virtual deletes come from workers; insert them with insertEvent');
    this.apply(change);
  }

  /** An informer event queues behind the graph changes already waiting (a worker's virtual delete, say). */
  insertEvent(change: GraphChange): void {
    this.builder.pending.push(change);
  }

  /** Applies the next `count` waiting graph changes, in order. */
  processGraphChanges(count = 1): void {
    if (this.builder.pending.length < count)
      throw new Error(`asked to apply ${count} graph change(s) but only ${this.builder.pending.length} wait`);
    for (let i = 0; i < count; i++) this.apply(this.builder.pending.shift() as GraphChange);
  }

  private apply(change: GraphChange): void {
    if (change.type !== 'virtual-delete') {
      const uid = change.object.metadata.uid ?? '';
      this.informer.set(uid, change.type === 'delete' ? 'deleted' : change.object);
    }
    this.builder.apply(change);
  }

  /**
   * The informer catches up with the client on one object: an add if it never saw it, an update if it changed,
   * a delete (with the last state) if it is gone. Throws when there is nothing new to deliver.
   */
  observe(id: ObjectIdentity): void {
    const seen = this.informer.get(id.uid);
    const current = this.client.current(id);
    if (current !== undefined) {
      if (seen === undefined || seen === 'deleted') this.apply(addEvent(current));
      else if (JSON.stringify(seen) !== JSON.stringify(current)) this.apply(updateEvent(seen, current));
      else throw new Error(`${describeIdentity(id)} did not change since the informer last delivered it`);
      return;
    }
    const last = this.client.lastState(id.uid);
    if (seen === undefined || seen === 'deleted' || last === undefined)
      throw new Error(`the informer has no deletion of ${describeIdentity(id)} to deliver`);
    this.apply(deleteEvent(last));
  }

  /** Lets the attemptToDelete worker loop take `count` items, each processed to the end. */
  async processAttemptToDelete(count = 1): Promise<void> {
    this.attemptToDelete.allow(count);
    await runWorker(
      this.attemptToDelete,
      (n) => this.workers.attemptToDeleteItem(n, this.attemptToDelete),
      (n, err) => this.reportFailure(n, err),
    );
  }

  /** Lets the attemptToOrphan worker loop take `count` items. */
  async processAttemptToOrphan(count = 1): Promise<void> {
    this.attemptToOrphan.allow(count);
    await runWorker(
      this.attemptToOrphan,
      (n) => this.workers.attemptToOrphanItem(n),
      (n, err) => this.reportFailure(n, err),
    );
  }

  private reportFailure(n: GraphNode, err: unknown): void {
    this.errors.push(`${describeNode(n)}: ${err instanceof Error ? err.message : String(err)}`);
  }

  /** The graph contradicts itself or the informer: every violation, empty when sound. */
  invariantViolations(): string[] {
    return graphInvariantViolations(this.builder.graph, {
      observed: new Map([...this.informer].map(([uid, seen]) => [uid, seen === 'deleted' ? 'deleted' : 'present'])),
      queuedForDeletion: (n) => this.attemptToDelete.holds(n),
      virtualDeletePending: (uid) => this.builder.pending.some((c) => c.type === 'virtual-delete' && c.identity.uid === uid),
      namespacedKind: (apiVersion, kind) => {
        try {
          return this.ops.resourceFor(apiVersion, kind).namespaced;
        } catch {
          return undefined;
        }
      },
    });
  }

  /** Compares the whole state with `expected` (omitted fields are empty), then starts new action/event/error logs. */
  assertState(expected: ExpectedState): void {
    const queued = (items: readonly QueuedItem[]): string[] =>
      items.map((item) => (item.via === 'add' ? describeNode(item.node) : `${describeNode(item.node)} [${item.via}]`));
    const actual = {
      graph: [...this.builder.graph.values()].map(describeNode).sort(),
      attemptToDelete: queued(this.attemptToDelete.pending()),
      attemptToOrphan: queued(this.attemptToOrphan.pending()),
      graphChanges: this.builder.pending.map(describeChange),
      absentOwners: this.builder.absentOwners.entries().map(describeIdentity).sort(),
      actions: this.client.takeActions(),
      events: this.client.takeEvents(),
      errors: this.errors,
    };
    this.errors = [];
    const wanted = {
      graph: [...(expected.graph ?? [])].sort(),
      attemptToDelete: [...(expected.attemptToDelete ?? [])],
      attemptToOrphan: [...(expected.attemptToOrphan ?? [])],
      graphChanges: [...(expected.graphChanges ?? [])],
      absentOwners: [...(expected.absentOwners ?? [])].sort(),
      actions: [...(expected.actions ?? [])],
      events: [...(expected.events ?? [])],
      errors: [...(expected.errors ?? [])],
    };
    assert.deepEqual(actual, wanted);
  }
}
