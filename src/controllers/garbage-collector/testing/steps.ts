import type { KubeObject } from '../../../api/types.js';
import type { ObjectIdentity } from '../graph.js';
import type { GraphChange } from '../graph-builder.js';
import type { ScriptedAnswer } from './fake-client.js';
import { describeChange, describeIdentity } from './fixtures.js';
import { type ExpectedState, GcHarness, type HarnessOptions } from './harness.js';

/** One step of a step test: a change to the world, a piece of the collector's work, or an assertion. */
export interface Step {
  readonly name: string;
  run(h: GcHarness): void | Promise<void>;
}

/** Puts an object in the client's store (not observed: feed an event or `observe` for that). */
export function createObjectInClient(obj: KubeObject): Step {
  return { name: `createObjectInClient ${obj.kind} ${obj.metadata.name}`, run: (h) => h.client.put(obj) };
}

/** Another client changes a stored object (resourceVersion bumped). */
export function updateObjectInClient(id: ObjectIdentity, change: (obj: KubeObject) => void): Step {
  return { name: `updateObjectInClient ${describeIdentity(id)}`, run: (h) => h.client.modify(id, change) };
}

/** A user deletes the object with this propagation policy: marked with GC finalizers, or removed, as the registry does. */
export function deleteInClient(id: ObjectIdentity, propagationPolicy: 'Background' | 'Foreground' | 'Orphan'): Step {
  return {
    name: `deleteInClient ${describeIdentity(id)} ${propagationPolicy}`,
    run: (h) => h.client.deleteAsUser(id, { propagationPolicy }),
  };
}

/** Another client deletes a stored object outright. */
export function deleteObjectFromClient(id: ObjectIdentity): Step {
  return { name: `deleteObjectFromClient ${describeIdentity(id)}`, run: (h) => h.client.remove(id) };
}

/** Scripts the answer to the next matching call (an error such as a 404 or 409, an object, or a racing change). */
export function scriptAnswer(verb: 'get' | 'delete' | 'patch', id: ObjectIdentity, answer: ScriptedAnswer): Step {
  return { name: `scriptAnswer ${verb} ${describeIdentity(id)}`, run: (h) => h.client.script(verb, id, answer) };
}

/** An informer event reaches the graph builder now. */
export function processEvent(change: GraphChange): Step {
  return { name: `processEvent ${describeChange(change)}`, run: (h) => h.processEvent(change) };
}

/** An informer event queues behind graph changes already waiting. */
export function insertEvent(change: GraphChange): Step {
  return { name: `insertEvent ${describeChange(change)}`, run: (h) => h.insertEvent(change) };
}

export function processGraphChanges(count = 1): Step {
  return { name: `processGraphChanges(${count})`, run: (h) => h.processGraphChanges(count) };
}

/** The informer catches up with the client on this object (add, update or delete as the store says). */
export function observe(id: ObjectIdentity): Step {
  return { name: `observe ${describeIdentity(id)}`, run: (h) => h.observe(id) };
}

export function processAttemptToDelete(count = 1): Step {
  return { name: `processAttemptToDelete(${count})`, run: (h) => h.processAttemptToDelete(count) };
}

export function processAttemptToOrphan(count = 1): Step {
  return { name: `processAttemptToOrphan(${count})`, run: (h) => h.processAttemptToOrphan(count) };
}

export function assertState(expected: ExpectedState): Step {
  return { name: 'assertState', run: (h) => h.assertState(expected) };
}

/** Runs a test's own check against the harness (the client's store, say) as a step. */
export function check(name: string, verify: (h: GcHarness) => void): Step {
  return { name, run: verify };
}

/**
 * Runs the steps in order on a fresh harness, checking the graph invariants after every one, and at the end that
 * every scripted answer was used. A failure names the step (its index and what it did).
 */
export async function runSteps(steps: readonly Step[], options: HarnessOptions = {}): Promise<GcHarness> {
  const h = new GcHarness(options);
  for (const [index, step] of steps.entries()) {
    const where = `step ${index} (${step.name})`;
    try {
      await step.run(h);
    } catch (err) {
      if (err instanceof Error) err.message = `${where}: ${err.message}`;
      throw err;
    }
    const violations = h.invariantViolations();
    if (violations.length > 0) throw new Error(`${where} broke graph invariants:\n  ${violations.join('\n  ')}`);
  }
  const unused = h.client.unusedScripts();
  if (unused.length > 0) throw new Error(`scripted answers never used: ${unused.join('; ')}`);
  return h;
}
