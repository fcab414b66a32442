import { test } from 'node:test';
import { addEvent, deleteEvent, makeId, makeObject, node, requeued } from './testing/fixtures.js';
import {
  assertState,
  createObjectInClient,
  deleteObjectFromClient,
  insertEvent,
  observe,
  processAttemptToDelete,
  processEvent,
  processGraphChanges,
  runSteps,
} from './testing/steps.js';

/**
 * Virtual owners (nodes made from a reference before, or without, the owner being observed) and how they end:
 * turning real, verified absent, verified absent under one identity while another dependent names another
 * (R4.3, R4.17, R4.19–R4.21, R4.23, R4.33), and owners deleted and recreated under the same name with a new uid.
 */

const owner = makeId('v1', 'ConfigMap', 'ns1', 'owner', 'owneruid1');
const ownerRecreated = makeId('v1', 'ConfigMap', 'ns1', 'owner', 'owneruid2');
const child = makeId('v1', 'ConfigMap', 'ns1', 'child', 'childuid');
const childObject = makeObject(child, { owners: [owner] });
const childNode = node(child, { owners: [owner] });

test('a dependent whose owner never existed is collected once the virtual owner is verified absent (GC-BG-04, R4.19)', async () => {
  await runSteps([
    createObjectInClient(childObject),
    processEvent(addEvent(childObject)),
    assertState({ graph: [childNode, node(owner, { virtual: true })], attemptToDelete: [node(owner, { virtual: true })] }),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/configmaps ns1/owner'],
      graph: [childNode, node(owner, { virtual: true })],
      graphChanges: ['virtual-delete v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    processGraphChanges(1),
    assertState({ graph: [childNode], attemptToDelete: [childNode], absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'] }),
    // R4.11: every observed reference names a verified-absent owner, so the DELETE goes out without a read.
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/configmaps ns1/child Background uid=childuid rv=1'],
      graph: [childNode],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    observe(child),
    assertState({ absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'] }),
  ]);
});

test('a virtual owner observed before it is verified turns real; the dependent goes only when the owner does (R4.17)', async () => {
  await runSteps([
    createObjectInClient(makeObject(owner)),
    createObjectInClient(childObject),
    processEvent(addEvent(childObject)),
    processEvent(addEvent(makeObject(owner))),
    assertState({ graph: [childNode, node(owner)], attemptToDelete: [node(owner)] }),
    processAttemptToDelete(1),
    assertState({ actions: ['get v1/configmaps ns1/owner'], graph: [childNode, node(owner)] }),
    deleteObjectFromClient(owner),
    observe(owner),
    assertState({ graph: [childNode], attemptToDelete: [childNode], absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'] }),
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/configmaps ns1/child Background uid=childuid rv=1'],
      graph: [childNode],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
  ]);
});

test('a late add of an owner already verified absent keeps the node; its absence still collects the dependent (R4.20)', async () => {
  await runSteps([
    createObjectInClient(childObject),
    processEvent(addEvent(childObject)),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/configmaps ns1/owner'],
      graph: [childNode, node(owner, { virtual: true })],
      graphChanges: ['virtual-delete v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    // A lagging informer delivers the owner's creation while the read that found it gone was in flight.
    processEvent(addEvent(makeObject(owner))),
    processGraphChanges(1),
    assertState({
      graph: [childNode, node(owner)],
      attemptToDelete: [childNode],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/configmaps ns1/child Background uid=childuid rv=1'],
      graph: [childNode, node(owner)],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    processEvent(deleteEvent(makeObject(owner))),
    observe(child),
    assertState({ attemptToDelete: [childNode], absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'] }),
    // The dependent queued by its owner's deletion has gone meanwhile: its DELETE finds nothing, which changes nothing.
    processAttemptToDelete(1),
    processGraphChanges(1),
    assertState({
      actions: ['delete v1/configmaps ns1/child Background uid=childuid rv=1'],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
  ]);
});

test('an owner deleted and recreated under its name with a new uid no longer owns the dependent (informer saw both)', async () => {
  await runSteps([
    createObjectInClient(makeObject(owner)),
    createObjectInClient(childObject),
    processEvent(addEvent(makeObject(owner))),
    processEvent(addEvent(childObject)),
    assertState({ graph: [childNode, node(owner)] }),
    deleteObjectFromClient(owner),
    createObjectInClient(makeObject(ownerRecreated)),
    observe(owner),
    observe(ownerRecreated),
    assertState({
      graph: [childNode, node(ownerRecreated)],
      attemptToDelete: [childNode],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/configmaps ns1/child Background uid=childuid rv=1'],
      graph: [childNode, node(ownerRecreated)],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
  ]);
});

test('an owner recreated with a new uid before the informer saw the old one: the read by name finds another uid (R4.23, R4.26d)', async () => {
  await runSteps([
    createObjectInClient(makeObject(ownerRecreated)),
    createObjectInClient(childObject),
    processEvent(addEvent(childObject)),
    processEvent(addEvent(makeObject(ownerRecreated))),
    assertState({
      graph: [childNode, node(owner, { virtual: true }), node(ownerRecreated)],
      attemptToDelete: [node(owner, { virtual: true })],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/configmaps ns1/owner'],
      graph: [childNode, node(owner, { virtual: true }), node(ownerRecreated)],
      graphChanges: ['virtual-delete v1/ConfigMap ns1/owner (owneruid1)'],
    }),
    processGraphChanges(1),
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/configmaps ns1/child Background uid=childuid rv=1'],
      graph: [childNode, node(ownerRecreated)],
      absentOwners: ['v1/ConfigMap ns1/owner (owneruid1)'],
    }),
  ]);
});

/** One uid referenced as two different owners: a Secret (wrong) and a Deployment (right). */
const deployment1 = makeId('apps/v1', 'Deployment', 'ns1', 'deployment1', 'deploymentuid1');
const badSecretRef = makeId('v1', 'Secret', 'ns1', 'secretname', 'deploymentuid1');
const badChild = makeId('v1', 'Pod', 'ns1', 'badpod', 'badpoduid');
const goodChild = makeId('v1', 'Pod', 'ns1', 'goodpod', 'goodpoduid');
const badChildNode = node(badChild, { owners: [badSecretRef] });
const goodChildNode = node(goodChild, { owners: [deployment1] });

const wrongKindSetup = [
  createObjectInClient(makeObject(deployment1)),
  createObjectInClient(makeObject(badChild, { owners: [badSecretRef] })),
  createObjectInClient(makeObject(goodChild, { owners: [deployment1] })),
  processEvent(addEvent(makeObject(badChild, { owners: [badSecretRef] }))),
  // Kubernetes also queues the good child here (its reference disagrees with the virtual node); Cascade queues
  // dependents for disagreeing coordinates only once the owner is observed (R4.16), and R4.19 sorts it out below.
  processEvent(addEvent(makeObject(goodChild, { owners: [deployment1] }))),
  assertState({
    graph: [badChildNode, goodChildNode, node(badSecretRef, { virtual: true })],
    attemptToDelete: [node(badSecretRef, { virtual: true })],
  }),
  processAttemptToDelete(1),
  assertState({
    actions: ['get v1/secrets ns1/secretname'],
    graph: [badChildNode, goodChildNode, node(badSecretRef, { virtual: true })],
    graphChanges: ['virtual-delete v1/Secret ns1/secretname (deploymentuid1)'],
  }),
];

test('a uid referenced with the wrong kind: the absent identity collects its dependent, the node switches to the other (R4.19)', async () => {
  await runSteps([
    ...wrongKindSetup,
    processGraphChanges(1),
    assertState({
      graph: [badChildNode, goodChildNode, node(deployment1, { virtual: true })],
      attemptToDelete: [badChildNode, node(deployment1, { virtual: true })],
      absentOwners: ['v1/Secret ns1/secretname (deploymentuid1)'],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/pods ns1/badpod Background uid=badpoduid rv=1'],
      graph: [badChildNode, goodChildNode, node(deployment1, { virtual: true })],
      attemptToDelete: [node(deployment1, { virtual: true })],
      absentOwners: ['v1/Secret ns1/secretname (deploymentuid1)'],
    }),
    processEvent(addEvent(makeObject(deployment1))),
    observe(badChild),
    processAttemptToDelete(1),
    assertState({
      actions: ['get apps/v1/deployments ns1/deployment1'],
      graph: [goodChildNode, node(deployment1)],
      absentOwners: ['v1/Secret ns1/secretname (deploymentuid1)'],
    }),
  ]);
});

test('a uid referenced with the wrong kind: the right owner observed while the wrong one is verified absent (R4.17, R4.20)', async () => {
  await runSteps([
    ...wrongKindSetup,
    // The owner's add is applied before the virtual delete: the node turns real as a Deployment and the child whose
    // reference disagrees is queued; the Secret's absence then leaves the observed node alone.
    processEvent(addEvent(makeObject(deployment1))),
    assertState({
      graph: [badChildNode, goodChildNode, node(deployment1)],
      attemptToDelete: [badChildNode],
      graphChanges: ['virtual-delete v1/Secret ns1/secretname (deploymentuid1)'],
    }),
    processGraphChanges(1),
    processAttemptToDelete(1),
    assertState({
      actions: ['delete v1/pods ns1/badpod Background uid=badpoduid rv=1'],
      graph: [badChildNode, goodChildNode, node(deployment1)],
      absentOwners: ['v1/Secret ns1/secretname (deploymentuid1)'],
    }),
  ]);
});

test('a uid referenced with the wrong kind: the right owner observed only after the virtual delete applies (R4.19, R4.17)', async () => {
  await runSteps([
    ...wrongKindSetup,
    insertEvent(addEvent(makeObject(deployment1))),
    assertState({
      graph: [badChildNode, goodChildNode, node(badSecretRef, { virtual: true })],
      graphChanges: ['virtual-delete v1/Secret ns1/secretname (deploymentuid1)', 'add apps/v1/Deployment ns1/deployment1 (deploymentuid1)'],
    }),
    processGraphChanges(2),
    assertState({
      graph: [badChildNode, goodChildNode, node(deployment1)],
      attemptToDelete: [badChildNode, node(deployment1)],
      absentOwners: ['v1/Secret ns1/secretname (deploymentuid1)'],
    }),
    processAttemptToDelete(2),
    assertState({
      actions: ['delete v1/pods ns1/badpod Background uid=badpoduid rv=1', 'get apps/v1/deployments ns1/deployment1'],
      graph: [badChildNode, goodChildNode, node(deployment1)],
      absentOwners: ['v1/Secret ns1/secretname (deploymentuid1)'],
    }),
  ]);
});

test('a virtual owner found alive is checked again, with backoff, until the informer observes it (R4.33)', async () => {
  await runSteps([
    createObjectInClient(makeObject(owner)),
    createObjectInClient(childObject),
    processEvent(addEvent(childObject)),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/configmaps ns1/owner'],
      graph: [childNode, node(owner, { virtual: true })],
      attemptToDelete: [requeued(node(owner, { virtual: true }), 'rate-limited')],
    }),
  ]);
});
