import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { ACKNOWLEDGING_KINDS, acknowledgementOf } from './orphan-acknowledgement.js';
import { makeId, makeObject, node, requeued } from './testing/fixtures.js';
import {
  assertState,
  check,
  createObjectInClient,
  deleteInClient,
  observe,
  processAttemptToDelete,
  processAttemptToOrphan,
  runSteps,
  type Step,
  updateObjectInClient,
} from './testing/steps.js';

/**
 * Extension A step by step (R12.164–R12.171, seed 002's adoption race; scenario WL-29 at controller level): the
 * orphan worker leaves every dependent alone until the owner's controller acknowledged the deletion's generation.
 * The first test shows the window Kubernetes leaves open: a controller that has not yet seen the deletion adopts
 * the stripped ReplicaSet again, and the owner's removal then takes it.
 */

const deployment = makeId('apps/v1', 'Deployment', 'ns1', 'web', 'webuid');
const replicaSet = makeId('apps/v1', 'ReplicaSet', 'ns1', 'web-1', 'rsuid');
const orphaning = node(deployment, { beingDeleted: true });
const controlled = { controlledKinds: [...ACKNOWLEDGING_KINDS] };

function withGeneration(obj: KubeObject, generation: number, observed: number): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, generation }, status: { observedGeneration: observed } };
}

const getOwner = 'get apps/v1/deployments ns1/web';
const stripOwner =
  'patch apps/v1/replicasets ns1/web-1 strategic {"metadata":{"uid":"rsuid","ownerReferences":[{"$patch":"delete","uid":"webuid"}]}}';
const ownerReference = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'webuid', controller: true };

/** The Deployment (generation 1, acknowledged) owning one ReplicaSet, observed, then deleted with Orphan. */
const orphanDeletedDeployment: readonly Step[] = [
  createObjectInClient(withGeneration(makeObject(deployment), 1, 1)),
  createObjectInClient(makeObject(replicaSet, { owners: [ownerReference] })),
  observe(deployment),
  observe(replicaSet),
  deleteInClient(deployment, 'Orphan'),
  observe(deployment),
  check('R1.10: the deletion bumped the generation', (h) => assert.equal(h.client.current(deployment)?.metadata.generation, 2)),
];

const acknowledge = updateObjectInClient(deployment, (obj) => {
  obj.status = { observedGeneration: 2 };
});

/** A Deployment controller that has not seen the deletion adopts the orphaned ReplicaSet again (R12.164). */
const readopt = updateObjectInClient(replicaSet, (obj) => {
  obj.metadata.ownerReferences = [{ ...ownerReference, blockOwnerDeletion: true }];
});

test('without the wait, a controller that has not seen the deletion re-adopts and the ReplicaSet is collected (R12.164, R4.34)', async () => {
  await runSteps([
    ...orphanDeletedDeployment,
    processAttemptToOrphan(1),
    assertState({
      actions: [stripOwner, getOwner, 'patch apps/v1/deployments ns1/web merge {"metadata":{"resourceVersion":"2","finalizers":[]}}'],
      graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
    }),
    check('the Deployment is gone', (h) => assert.equal(h.client.current(deployment), undefined)),
    readopt,
    observe(replicaSet),
    observe(deployment),
    processAttemptToDelete(1),
    check('the re-adopted ReplicaSet was deleted with its gone owner', (h) => assert.equal(h.client.current(replicaSet), undefined)),
  ]);
});

test('with the wait, no dependent is touched until observedGeneration reaches the deletion generation (R12.167, R12.169)', async () => {
  await runSteps(
    [
      ...orphanDeletedDeployment,
      processAttemptToOrphan(1),
      assertState({
        actions: [getOwner],
        graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
        attemptToOrphan: [requeued(orphaning, 'after 50ms')],
      }),
      processAttemptToOrphan(1),
      assertState({
        actions: [getOwner],
        graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
        attemptToOrphan: [requeued(orphaning, 'after 100ms')],
      }),
      check('the ReplicaSet still names its owner', (h) =>
        assert.equal(h.client.current(replicaSet)?.metadata.ownerReferences?.[0]?.uid, 'webuid'),
      ),
      acknowledge,
      processAttemptToOrphan(1),
      assertState({
        actions: [
          getOwner,
          stripOwner,
          getOwner,
          'patch apps/v1/deployments ns1/web merge {"metadata":{"resourceVersion":"3","finalizers":[]}}',
        ],
        graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
      }),
      check('the ReplicaSet survives without owners', (h) =>
        assert.equal(h.client.current(replicaSet)?.metadata.ownerReferences, undefined),
      ),
    ],
    { orphanAcknowledgement: controlled },
  );
});

test('an owner whose controller never answers is orphaned after the timeout, with a Warning event (R12.170)', async () => {
  let now = 0;
  await runSteps(
    [
      ...orphanDeletedDeployment,
      processAttemptToOrphan(1),
      assertState({
        actions: [getOwner],
        graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
        attemptToOrphan: [requeued(orphaning, 'after 50ms')],
      }),
      check('time passes', () => {
        now = 1000;
      }),
      processAttemptToOrphan(1),
      assertState({
        actions: [
          getOwner,
          stripOwner,
          getOwner,
          'patch apps/v1/deployments ns1/web merge {"metadata":{"resourceVersion":"2","finalizers":[]}}',
        ],
        events: [
          '[ns1] Warning OrphanObservedGenerationTimeout the controller of this object did not acknowledge its deletion within 1s (status.observedGeneration 1 < metadata.generation 2); its dependents are orphaned anyway and may be adopted again involvedObject{kind=Deployment,apiVersion=apps/v1,namespace=ns1,name=web}',
        ],
        graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
      }),
    ],
    { orphanAcknowledgement: { ...controlled, timeoutMs: 1000, now: () => now } },
  );
});

test('switching the owner away from Orphan during the wait cancels it without touching a dependent (R12.171)', async () => {
  await runSteps(
    [
      ...orphanDeletedDeployment,
      processAttemptToOrphan(1),
      assertState({
        actions: [getOwner],
        graph: [orphaning, node(replicaSet, { owners: [ownerReference] })],
        attemptToOrphan: [requeued(orphaning, 'after 50ms')],
      }),
      deleteInClient(deployment, 'Foreground'),
      processAttemptToOrphan(1),
      assertState({ actions: [getOwner], graph: [orphaning, node(replicaSet, { owners: [ownerReference] })] }),
      check('the ReplicaSet still names its owner', (h) =>
        assert.equal(h.client.current(replicaSet)?.metadata.ownerReferences?.[0]?.uid, 'webuid'),
      ),
    ],
    { orphanAcknowledgement: controlled },
  );
});

test('which owners wait (R12.166)', () => {
  const live = (apiVersion: string, kind: string, generation: number | undefined, status?: unknown): boolean => {
    const obj: KubeObject = { apiVersion, kind, metadata: { name: 'x', generation }, status };
    return acknowledgementOf(obj, { apiVersion, kind }, new Set(['apps/v1/Deployment'])) !== undefined;
  };
  assert.equal(live('apps/v1', 'Deployment', 2), true, 'a running controller: a missing observedGeneration counts as 0');
  assert.equal(live('apps/v1', 'StatefulSet', 2, { observedGeneration: 1 }), false, 'its controller does not run here');
  assert.equal(live('batch/v1', 'Job', 2, { observedGeneration: 1 }), false, 'Jobs have no observedGeneration (R12.37)');
  assert.equal(live('example.com/v1', 'Widget', 2, { observedGeneration: 1 }), true, 'any object with a numeric observedGeneration');
  assert.equal(live('example.com/v1', 'Widget', 2, { observedGeneration: '1' }), false, 'not numeric');
  assert.equal(live('example.com/v1', 'Widget', undefined, { observedGeneration: 0 }), false, 'no generation');
});
