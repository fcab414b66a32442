import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blocking, makeId, makeObject, node, requeued } from './testing/fixtures.js';
import {
  assertState,
  check,
  createObjectInClient,
  deleteInClient,
  observe,
  processAttemptToDelete,
  runSteps,
  updateObjectInClient,
} from './testing/steps.js';

/**
 * Foreground deletion step by step (R4.14, R4.24, R4.27–R4.32; debts D1, D2, D5; scenarios GC-FG-01..03,
 * GC-BG-07): which dependents hold the owner, when its foregroundDeletion finalizer goes, and how a cycle of
 * blocking references is broken.
 */

const id = (name: string) => makeId('v1', 'ConfigMap', 'ns1', name, `${name}uid`);
const owner = id('owner');
const HOLD = 'example.com/hold';
const stillStored = (what: typeof owner) =>
  check(`${what.name} is still stored`, (h) => assert.ok(h.client.current(what) !== undefined, `${what.name} is gone`));
const gone = (what: typeof owner) => check(`${what.name} is gone`, (h) => assert.equal(h.client.current(what), undefined));
const finalizerRemoved = (name: string, rv: string) => [
  `get v1/configmaps ns1/${name}`,
  `patch v1/configmaps ns1/${name} merge {"metadata":{"resourceVersion":"${rv}","finalizers":[]}}`,
];

test('a blocking dependent holds its foreground owner until it is gone (GC-FG-01, R4.31)', async () => {
  const held = id('held');
  const heldNode = (flags: { beingDeleted?: boolean } = {}) => node(held, { owners: [blocking(owner)], ...flags });
  const deleting = node(owner, { deletingDependents: true });
  await runSteps([
    createObjectInClient(makeObject(owner)),
    createObjectInClient(makeObject(held, { owners: [blocking(owner)], finalizers: [HOLD] })),
    observe(owner),
    observe(held),
    deleteInClient(owner, 'Foreground'),
    observe(owner),
    // R4.14: the owner and all its dependents are queued.
    assertState({ graph: [deleting, heldNode()], attemptToDelete: [heldNode(), deleting] }),
    processAttemptToDelete(1),
    // Its only owner waits for dependents, and it has none itself: deleted with its own policy (R4.29).
    assertState({
      actions: ['get v1/configmaps ns1/held', 'get v1/configmaps ns1/owner', 'delete v1/configmaps ns1/held Background uid=helduid rv=1'],
      graph: [deleting, heldNode()],
      attemptToDelete: [deleting],
    }),
    processAttemptToDelete(1),
    assertState({ actions: ['get v1/configmaps ns1/owner'], graph: [deleting, heldNode()], attemptToDelete: [heldNode()] }),
    observe(held),
    // R4.22: a dependent being deleted is left to its own finalizers.
    processAttemptToDelete(1),
    assertState({ graph: [deleting, heldNode({ beingDeleted: true })] }),
    stillStored(owner),
    updateObjectInClient(held, (obj) => {
      obj.metadata.finalizers = [];
    }),
    observe(held),
    // R4.15: the deletion of a dependent queues its owner that waits for dependents.
    assertState({ graph: [deleting], attemptToDelete: [deleting] }),
    processAttemptToDelete(1),
    assertState({ actions: ['get v1/configmaps ns1/owner', ...finalizerRemoved('owner', '2')], graph: [deleting] }),
    gone(owner),
    observe(owner),
    assertState({}),
  ]);
});

test('dependents that do not block are deleted but do not hold the owner (GC-FG-02, D2, R4.32)', async () => {
  const unset = id('unset');
  const unblocked = id('unblocked');
  const notBlocking = { ...owner, blockOwnerDeletion: false };
  const deleting = node(owner, { deletingDependents: true });
  await runSteps([
    createObjectInClient(makeObject(owner)),
    createObjectInClient(makeObject(unset, { owners: [owner], finalizers: [HOLD] })),
    createObjectInClient(makeObject(unblocked, { owners: [notBlocking], finalizers: [HOLD] })),
    observe(owner),
    observe(unset),
    observe(unblocked),
    deleteInClient(owner, 'Foreground'),
    observe(owner),
    processAttemptToDelete(3),
    assertState({
      actions: [
        'get v1/configmaps ns1/unset',
        'get v1/configmaps ns1/owner',
        'delete v1/configmaps ns1/unset Background uid=unsetuid rv=1',
        'get v1/configmaps ns1/unblocked',
        'get v1/configmaps ns1/owner',
        'delete v1/configmaps ns1/unblocked Background uid=unblockeduid rv=1',
        'get v1/configmaps ns1/owner',
        ...finalizerRemoved('owner', '2'),
      ],
      graph: [deleting, node(unset, { owners: [owner] }), node(unblocked, { owners: [notBlocking] })],
    }),
    gone(owner),
    stillStored(unset),
    stillStored(unblocked),
  ]);
});

const doomed = id('doomed');
const solid = id('solid');
const shared = id('shared');
const sharedSetup = [
  createObjectInClient(makeObject(doomed)),
  createObjectInClient(makeObject(solid)),
  createObjectInClient(makeObject(shared, { owners: [blocking(doomed), solid] })),
  observe(doomed),
  observe(solid),
  observe(shared),
  deleteInClient(doomed, 'Foreground'),
  observe(doomed),
];
const sharedNode = node(shared, { owners: [blocking(doomed), solid] });
const doomedDeleting = node(doomed, { deletingDependents: true });

test('a blocking dependent with another live owner drops the reference instead of holding the owner (GC-FG-03, D1)', async () => {
  await runSteps([
    ...sharedSetup,
    processAttemptToDelete(1),
    // R4.27: one solid owner keeps the dependent; the reference to the waiting owner is removed from it.
    assertState({
      actions: [
        'get v1/configmaps ns1/shared',
        'get v1/configmaps ns1/doomed',
        'get v1/configmaps ns1/solid',
        'patch v1/configmaps ns1/shared strategic {"metadata":{"uid":"shareduid","ownerReferences":[{"$patch":"delete","uid":"doomeduid"}]}}',
      ],
      graph: [doomedDeleting, node(solid), sharedNode],
      attemptToDelete: [doomedDeleting],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/configmaps ns1/doomed'],
      graph: [doomedDeleting, node(solid), sharedNode],
      attemptToDelete: [sharedNode],
    }),
    // R4.13: the blocking reference is gone, so the waiting owner is queued again.
    observe(shared),
    assertState({
      graph: [doomedDeleting, node(solid), node(shared, { owners: [solid] })],
      attemptToDelete: [node(shared, { owners: [solid] }), doomedDeleting],
    }),
    processAttemptToDelete(2),
    assertState({
      actions: [
        'get v1/configmaps ns1/shared',
        'get v1/configmaps ns1/solid',
        'get v1/configmaps ns1/doomed',
        ...finalizerRemoved('doomed', '2'),
      ],
      graph: [doomedDeleting, node(solid), node(shared, { owners: [solid] })],
    }),
    gone(doomed),
    stillStored(shared),
  ]);
});

test('with --strict-block-owner-deletion the blocking dependent keeps its reference and the owner waits, told why', async () => {
  await runSteps(
    [
      ...sharedSetup,
      processAttemptToDelete(2),
      assertState({
        actions: [
          'get v1/configmaps ns1/shared',
          'get v1/configmaps ns1/doomed',
          'get v1/configmaps ns1/solid',
          'get v1/configmaps ns1/doomed',
        ],
        events: [
          '[ns1] Warning ForegroundDeletionBlocked dependent ConfigMap/shared blocks the deletion of this object and is kept by its other owners (ConfigMap/solid); the deletion waits until it is gone (--strict-block-owner-deletion) involvedObject{kind=ConfigMap,apiVersion=v1,namespace=ns1,name=doomed}',
        ],
        graph: [doomedDeleting, node(solid), sharedNode],
        attemptToDelete: [sharedNode],
      }),
      stillStored(doomed),
    ],
    { strictBlockOwnerDeletion: true },
  );
});

test('a cycle of blocking references is broken and every member deleted (GC-BG-07, R4.28, D5)', async () => {
  const [a, b, c] = [id('a'), id('b'), id('c')];
  const aNode = node(a, { owners: [blocking(c)], deletingDependents: true });
  const bNode = node(b, { owners: [blocking(a)], deletingDependents: true });
  const cBlocking = node(c, { owners: [blocking(b)] });
  const unblockedRefToB = { ...b, blockOwnerDeletion: false };
  const cNode = node(c, { owners: [unblockedRefToB], deletingDependents: true });
  const h = await runSteps([
    createObjectInClient(makeObject(a, { owners: [blocking(c)] })),
    createObjectInClient(makeObject(b, { owners: [blocking(a)] })),
    createObjectInClient(makeObject(c, { owners: [blocking(b)] })),
    observe(a),
    observe(b),
    observe(c),
    processAttemptToDelete(1),
    assertState({
      actions: ['get v1/configmaps ns1/c', 'get v1/configmaps ns1/b'],
      graph: [node(a, { owners: [blocking(c)] }), node(b, { owners: [blocking(a)] }), cBlocking],
    }),
    deleteInClient(a, 'Foreground'),
    observe(a),
    // b waits on a, and has a dependent: deleted in foreground (R4.28), then a waits on b.
    processAttemptToDelete(2),
    observe(b),
    processAttemptToDelete(1),
    assertState({
      actions: [
        'get v1/configmaps ns1/b',
        'get v1/configmaps ns1/a',
        'delete v1/configmaps ns1/b Foreground uid=buid rv=1',
        'get v1/configmaps ns1/a',
        'get v1/configmaps ns1/b',
      ],
      graph: [aNode, bNode, cBlocking],
      attemptToDelete: [cBlocking],
    }),
    // c waits on b and its dependent a waits for dependents: the cycle heuristic unblocks c's references first.
    // The DELETE then carries the resourceVersion read before that patch: a conflict, and the ownerReferences
    // differ now, so the item is retried with backoff (as in Kubernetes).
    processAttemptToDelete(1),
    assertState({
      actions: [
        'get v1/configmaps ns1/c',
        'get v1/configmaps ns1/b',
        'patch v1/configmaps ns1/c merge {"metadata":{"resourceVersion":"1","uid":"cuid","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"buid","blockOwnerDeletion":false}]}}',
        'delete v1/configmaps ns1/c Foreground uid=cuid rv=1',
        'get v1/configmaps ns1/c',
      ],
      errors: [
        `${cBlocking}: Operation cannot be fulfilled on configmaps "c": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 2`,
      ],
      graph: [aNode, bNode, cBlocking],
      attemptToDelete: [requeued(cBlocking, 'rate-limited')],
    }),
    processAttemptToDelete(1),
    assertState({
      actions: [
        'get v1/configmaps ns1/c',
        'get v1/configmaps ns1/b',
        'patch v1/configmaps ns1/c merge {"metadata":{"resourceVersion":"2","uid":"cuid","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"buid","blockOwnerDeletion":false}]}}',
        'delete v1/configmaps ns1/c Foreground uid=cuid rv=2',
      ],
      graph: [aNode, bNode, cBlocking],
    }),
    // c's reference to b stopped blocking (b is queued to finish) and c now waits for its dependent a.
    observe(c),
    assertState({ graph: [aNode, bNode, cNode], attemptToDelete: [bNode, aNode, cNode] }),
    processAttemptToDelete(3),
    assertState({
      actions: ['get v1/configmaps ns1/b', ...finalizerRemoved('b', '2'), 'get v1/configmaps ns1/a', 'get v1/configmaps ns1/c'],
      graph: [aNode, bNode, cNode],
    }),
    observe(b),
    processAttemptToDelete(2),
    observe(a),
    processAttemptToDelete(1),
    observe(c),
    assertState({
      actions: [
        'get v1/configmaps ns1/a',
        ...finalizerRemoved('a', '2'),
        'get v1/configmaps ns1/c',
        'get v1/configmaps ns1/c',
        ...finalizerRemoved('c', '3'),
      ],
      absentOwners: ['v1/ConfigMap ns1/b (buid)'],
    }),
    gone(a),
    gone(b),
    gone(c),
  ]);
  assert.equal(h.deletions, 2, 'b and c were deleted by the collector; a by the user');
});
