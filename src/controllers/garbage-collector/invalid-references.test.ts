import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addEvent, makeId, makeObject, node } from './testing/fixtures.js';
import {
  assertState,
  check,
  createObjectInClient,
  deleteObjectFromClient,
  observe,
  processAttemptToDelete,
  processEvent,
  processGraphChanges,
  runSteps,
} from './testing/steps.js';

/**
 * Invalid owner references in every observation order (TestConflictingData of Kubernetes' garbagecollector_test.go;
 * rules R4.16–R4.20, R4.26c, R4.38, R4.39; scenarios GC-INV-01..04, GC-CS-01). A reference names no namespace: a
 * namespaced owner is looked for in the dependent's namespace, so a reference to an owner in another namespace
 * is dangling (the dependent is collected), and a cluster-scoped dependent's reference to a namespaced kind can
 * never be resolved (it is never collected). Both get the OwnerRefInvalidNamespace event once the owner is seen.
 */

const pod1ns1 = makeId('v1', 'Pod', 'ns1', 'podname1', 'poduid1');
const pod2ns1 = makeId('v1', 'Pod', 'ns1', 'podname2', 'poduid2');
const pod2ns2 = makeId('v1', 'Pod', 'ns2', 'podname2', 'poduid2');
const node1 = makeId('v1', 'Node', '', 'nodename', 'nodeuid1');
/** A virtual owner takes the referencing dependent's namespace, even for a cluster-scoped kind (D6). */
const node1WithNamespace = makeId('v1', 'Node', 'ns1', 'nodename', 'nodeuid1');
/** A namespaced owner referenced from a cluster-scoped dependent: a virtual node without namespace. */
const pod1NoNamespace = makeId('v1', 'Pod', '', 'podname1', 'poduid1');

const badPodEvent =
  '[ns1] Warning OwnerRefInvalidNamespace ownerRef [v1/Pod, namespace: ns1, name: podname2, uid: poduid2] does not exist in namespace "ns1" involvedObject{kind=Pod,apiVersion=v1,namespace=ns1,name=podname1}';
const badNodeEvent =
  '[default] Warning OwnerRefInvalidNamespace ownerRef [v1/Pod, namespace: , name: podname1, uid: poduid1] does not exist in namespace "" involvedObject{kind=Node,apiVersion=v1,name=nodename}';

const stored = (id: typeof pod1ns1) =>
  check(`${id.name} is still stored`, (h) => assert.ok(h.client.current(id) !== undefined, `${id.kind} ${id.name} was deleted`));

test('good child in ns1 -> cluster-scoped owner: the owner seen before its virtual node is checked, then deleted (GC-CS-01)', async () => {
  const h = await runSteps([
    createObjectInClient(makeObject(node1)),
    createObjectInClient(makeObject(pod1ns1, { owners: [node1] })),
    processEvent(addEvent(makeObject(pod1ns1, { owners: [node1] }))),
    assertState({
      graph: [node(pod1ns1, { owners: [node1] }), node(node1WithNamespace, { virtual: true })],
      attemptToDelete: [node(node1WithNamespace, { virtual: true })],
    }),
    // R4.17: observed, the node takes the real (cluster-scoped) identity; the reference matches it, nothing is queued.
    processEvent(addEvent(makeObject(node1))),
    assertState({ graph: [node(pod1ns1, { owners: [node1] }), node(node1)], attemptToDelete: [node(node1)] }),
    // Kubernetes drops the stale virtual entry without a read; Cascade's node turned real in place and is read once.
    processAttemptToDelete(1),
    assertState({ actions: ['get v1/nodes nodename'], graph: [node(pod1ns1, { owners: [node1] }), node(node1)] }),
    deleteObjectFromClient(node1),
    observe(node1),
    assertState({
      graph: [node(pod1ns1, { owners: [node1] })],
      attemptToDelete: [node(pod1ns1, { owners: [node1] })],
      absentOwners: ['v1/Node nodename (nodeuid1)'],
    }),
    // R4.11: a cluster-scoped owner verified absent answers for dependents in every namespace, without a read.
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/pods ns1/podname1 Background uid=poduid1 rv=1'],
      graph: [node(pod1ns1, { owners: [node1] })],
      absentOwners: ['v1/Node nodename (nodeuid1)'],
    }),
    observe(pod1ns1),
    assertState({ absentOwners: ['v1/Node nodename (nodeuid1)'] }),
  ]);
  assert.equal(h.deletions, 1);
});

/** The valid owner pod2 in ns2 and the bad child pod1 in ns1 that references it. */
const badChildSetup = [createObjectInClient(makeObject(pod1ns1, { owners: [pod2ns1] })), createObjectInClient(makeObject(pod2ns2))];

/** The bad child's end: read, its owner looked up in ns1 (absent), deleted, and the deletion observed. */
const badChildCollected = (extraAbsent: string[], queuedOwner: string[] = []) => [
  processAttemptToDelete(1),
  assertState({
    actions: ['get v1/pods ns1/podname1', 'get v1/pods ns1/podname2', 'delete v1/pods ns1/podname1 Background uid=poduid1 rv=1'],
    graph: [node(pod1ns1, { owners: [pod2ns1] }), ...queuedOwner],
    absentOwners: ['v1/Pod ns1/podname2 (poduid2)', ...extraAbsent],
  }),
  observe(pod1ns1),
  assertState({ graph: queuedOwner, absentOwners: ['v1/Pod ns1/podname2 (poduid2)', ...extraAbsent] }),
];

test('bad child in ns1 -> owner in ns2 (child first): the child is collected, the owner untouched (GC-INV-03, GC-INV-04)', async () => {
  await runSteps([
    ...badChildSetup,
    processEvent(addEvent(makeObject(pod1ns1, { owners: [pod2ns1] }))),
    assertState({
      graph: [node(pod1ns1, { owners: [pod2ns1] }), node(pod2ns1, { virtual: true })],
      attemptToDelete: [node(pod2ns1, { virtual: true })],
    }),
    // R4.17: the owner turns real in ns2; the child's reference cannot mean it, so the child is queued and warned about.
    processEvent(addEvent(makeObject(pod2ns2))),
    assertState({
      graph: [node(pod1ns1, { owners: [pod2ns1] }), node(pod2ns2)],
      attemptToDelete: [node(pod2ns2), node(pod1ns1, { owners: [pod2ns1] })],
      events: [badPodEvent],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/pods ns2/podname2'],
      graph: [node(pod1ns1, { owners: [pod2ns1] }), node(pod2ns2)],
      attemptToDelete: [node(pod1ns1, { owners: [pod2ns1] })],
    }),
    ...badChildCollected([], [node(pod2ns2)]),
    stored(pod2ns2),
  ]);
});

test('bad child in ns1 -> owner in ns2 (owner first): the child is queued and warned about at once (GC-INV-03, GC-INV-04)', async () => {
  await runSteps([
    ...badChildSetup,
    processEvent(addEvent(makeObject(pod2ns2))),
    assertState({ graph: [node(pod2ns2)] }),
    processEvent(addEvent(makeObject(pod1ns1, { owners: [pod2ns1] }))),
    assertState({
      graph: [node(pod1ns1, { owners: [pod2ns1] }), node(pod2ns2)],
      attemptToDelete: [node(pod1ns1, { owners: [pod2ns1] })],
      events: [badPodEvent],
    }),
    ...badChildCollected([], [node(pod2ns2)]),
    stored(pod2ns2),
  ]);
});

test('bad child in ns1 -> owner in ns2 (owner deleted between): the ns2 absence does not answer for ns1', async () => {
  await runSteps([
    ...badChildSetup,
    processEvent(addEvent(makeObject(pod1ns1, { owners: [pod2ns1] }))),
    processEvent(addEvent(makeObject(pod2ns2))),
    assertState({
      graph: [node(pod1ns1, { owners: [pod2ns1] }), node(pod2ns2)],
      attemptToDelete: [node(pod2ns2), node(pod1ns1, { owners: [pod2ns1] })],
      events: [badPodEvent],
    }),
    deleteObjectFromClient(pod2ns2),
    observe(pod2ns2),
    // R4.15: the owner's absence is recorded in its own namespace; the child is already queued.
    assertState({
      graph: [node(pod1ns1, { owners: [pod2ns1] })],
      attemptToDelete: [node(pod2ns2), node(pod1ns1, { owners: [pod2ns1] })],
      absentOwners: ['v1/Pod ns2/podname2 (poduid2)'],
    }),
    // The queued owner is gone: its read finds nothing and reports it, which changes nothing once applied.
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/pods ns2/podname2'],
      graph: [node(pod1ns1, { owners: [pod2ns1] })],
      attemptToDelete: [node(pod1ns1, { owners: [pod2ns1] })],
      graphChanges: ['virtual-delete v1/Pod ns2/podname2 (poduid2)'],
      absentOwners: ['v1/Pod ns2/podname2 (poduid2)'],
    }),
    processGraphChanges(1),
    // The cached ns2 absence is not the ns1 owner the reference means: the child still takes a live lookup.
    ...badChildCollected(['v1/Pod ns2/podname2 (poduid2)']),
  ]);
});

/** The cluster-scoped node1 referencing the namespaced pod1 in ns1. */
const badClusterChildSetup = [createObjectInClient(makeObject(node1, { owners: [pod1ns1] })), createObjectInClient(makeObject(pod1ns1))];

test('bad cluster-scoped child -> owner in ns1 (child first): never collected, even once the owner is gone (GC-INV-01, GC-INV-02)', async () => {
  await runSteps([
    ...badClusterChildSetup,
    processEvent(addEvent(makeObject(node1, { owners: [pod1ns1] }))),
    assertState({
      graph: [node(node1, { owners: [pod1ns1] }), node(pod1NoNamespace, { virtual: true })],
      attemptToDelete: [node(pod1NoNamespace, { virtual: true })],
    }),
    // R4.26c: a namespaced kind without a namespace cannot be looked up; the virtual node is dropped from the queue.
    processAttemptToDelete(1),
    assertState({ graph: [node(node1, { owners: [pod1ns1] }), node(pod1NoNamespace, { virtual: true })] }),
    processEvent(addEvent(makeObject(pod1ns1))),
    assertState({
      graph: [node(node1, { owners: [pod1ns1] }), node(pod1ns1)],
      attemptToDelete: [node(node1, { owners: [pod1ns1] })],
      events: [badNodeEvent],
    }),
    processAttemptToDelete(1),
    assertState({ actions: ['get v1/nodes nodename'], graph: [node(node1, { owners: [pod1ns1] }), node(pod1ns1)] }),
    deleteObjectFromClient(pod1ns1),
    observe(pod1ns1),
    assertState({
      graph: [node(node1, { owners: [pod1ns1] })],
      attemptToDelete: [node(node1, { owners: [pod1ns1] })],
      absentOwners: ['v1/Pod ns1/podname1 (poduid1)'],
    }),
    // R4.39: the ns1 absence is not consulted for a cluster-scoped dependent, and the reference is never resolved.
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/nodes nodename'],
      graph: [node(node1, { owners: [pod1ns1] })],
      absentOwners: ['v1/Pod ns1/podname1 (poduid1)'],
    }),
    stored(node1),
  ]);
});

test('bad cluster-scoped child -> owner in ns1 (owner first): warned about and queued at once, never collected (GC-INV-01, GC-INV-02)', async () => {
  await runSteps([
    ...badClusterChildSetup,
    processEvent(addEvent(makeObject(pod1ns1))),
    assertState({ graph: [node(pod1ns1)] }),
    processEvent(addEvent(makeObject(node1, { owners: [pod1ns1] }))),
    assertState({
      graph: [node(node1, { owners: [pod1ns1] }), node(pod1ns1)],
      attemptToDelete: [node(node1, { owners: [pod1ns1] })],
      events: [badNodeEvent],
    }),
    processAttemptToDelete(1),
    assertState({ actions: ['get v1/nodes nodename'], graph: [node(node1, { owners: [pod1ns1] }), node(pod1ns1)] }),
    stored(node1),
  ]);
});

test('bad cluster-scoped child -> owner in ns1 (owner deleted between): the owner read finds nothing, the child stays', async () => {
  await runSteps([
    ...badClusterChildSetup,
    processEvent(addEvent(makeObject(node1, { owners: [pod1ns1] }))),
    processEvent(addEvent(makeObject(pod1ns1))),
    assertState({
      graph: [node(node1, { owners: [pod1ns1] }), node(pod1ns1)],
      attemptToDelete: [node(pod1ns1), node(node1, { owners: [pod1ns1] })],
      events: [badNodeEvent],
    }),
    deleteObjectFromClient(pod1ns1),
    observe(pod1ns1),
    processAttemptToDelete(2),
    assertState({
      actions: ['get v1/pods ns1/podname1', 'get v1/nodes nodename'],
      graph: [node(node1, { owners: [pod1ns1] })],
      graphChanges: ['virtual-delete v1/Pod ns1/podname1 (poduid1)'],
      absentOwners: ['v1/Pod ns1/podname1 (poduid1)'],
    }),
    processGraphChanges(1),
    assertState({ graph: [node(node1, { owners: [pod1ns1] })], absentOwners: ['v1/Pod ns1/podname1 (poduid1)'] }),
    stored(node1),
  ]);
});
