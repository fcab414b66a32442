import type { Graph, GraphNode } from '../graph.js';
import { describeIdentity } from './fixtures.js';

/** What the graph must agree with besides itself: the informer's view and the collector's pending work. */
export interface InvariantContext {
  /** Per uid, whether the last informer event applied for it was an add/update ('present') or a delete. */
  readonly observed: ReadonlyMap<string, 'present' | 'deleted'>;
  /** Whether a worker will look at this node again (it waits in, or is being processed by, attemptToDelete). */
  readonly queuedForDeletion: (node: GraphNode) => boolean;
  /** Whether a virtual delete for this uid waits to be applied. */
  readonly virtualDeletePending: (uid: string) => boolean;
  /** Whether the kind is namespaced (undefined when no resource serves it). */
  readonly namespacedKind: (apiVersion: string, kind: string) => boolean | undefined;
}

/**
 * Every way the ownership graph contradicts itself or the informer's view (verifyGraphInvariants of Kubernetes'
 * garbagecollector_test.go, extended): empty when the graph is sound. Checked after every step of a step test.
 */
export function graphInvariantViolations(graph: Graph, context: InvariantContext): string[] {
  const violations: string[] = [];
  const name = (n: GraphNode): string => `${n.virtual ? 'virtual ' : ''}${describeIdentity(n.identity)}`;
  for (const n of graph.values()) {
    if (graph.get(n.identity.uid) !== n) violations.push(`${name(n)} is not stored under its own uid`);
    // Owner → dependent edges are mirrored by dependent → owner references, and point at nodes still in the graph.
    for (const dependent of n.dependents) {
      if (graph.get(dependent.identity.uid) !== dependent)
        violations.push(`${name(n)} lists ${name(dependent)} as a dependent, but that node left the graph`);
      if (!dependent.owners.some((ref) => ref.uid === n.identity.uid)) {
        violations.push(`${name(n)} lists ${name(dependent)} as a dependent, but its owners do not name ${n.identity.uid}`);
      }
    }
    for (const ref of n.owners) {
      const owner = graph.get(ref.uid);
      if (owner !== undefined && !owner.dependents.has(n))
        violations.push(`${name(n)} names owner ${name(owner)}, which does not list it as a dependent`);
    }
    if (n.deletingDependents && !n.beingDeleted) violations.push(`${name(n)} is deletingDependents without beingDeleted`);
    const state = context.observed.get(n.identity.uid);
    if (n.virtual) {
      if (n.observed !== undefined || n.owners.length > 0 || n.beingDeleted)
        violations.push(`${name(n)} is virtual but carries observed state`);
      if (state === 'present') violations.push(`${name(n)} is virtual although the informer delivered the object`);
      // A virtual node exists only to be verified: a worker will look at it, or its verified absence waits to be
      // applied; the one exception is a namespaced kind named without a namespace, which cannot be looked up (R4.26c).
      const unverifiable = n.identity.namespace === '' && context.namespacedKind(n.identity.apiVersion, n.identity.kind) === true;
      if (!context.queuedForDeletion(n) && !context.virtualDeletePending(n.identity.uid) && !unverifiable) {
        violations.push(`${name(n)} is virtual but nothing will verify it`);
      }
      continue;
    }
    if (state !== 'present')
      violations.push(
        `${name(n)} is in the graph as observed, but the informer ${state === 'deleted' ? 'delivered its deletion' : 'never delivered it'}`,
      );
    if (n.observed?.metadata.uid !== n.identity.uid) violations.push(`${name(n)} holds an observed object of another uid`);
    const observedOwners = (n.observed?.metadata.ownerReferences ?? []).map((r) => r.uid).join(',');
    if (observedOwners !== n.owners.map((r) => r.uid).join(','))
      violations.push(`${name(n)} owners differ from the observed object's ownerReferences`);
  }
  for (const [uid, state] of context.observed) {
    if (state === 'present' && graph.get(uid) === undefined)
      violations.push(`the informer delivered ${uid} but the graph has no node for it`);
  }
  return violations;
}
