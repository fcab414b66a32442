import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import type { FakeGcClient } from './testing/fake-client.js';
import { makeId, makeObject, node, ownerRef, requeued } from './testing/fixtures.js';
import {
  assertState,
  check,
  createObjectInClient,
  deleteObjectFromClient,
  observe,
  processAttemptToDelete,
  runSteps,
  scriptAnswer,
} from './testing/steps.js';

/**
 * A dependent changing between the collector's decision and its DELETE (R4.27, R4.30): every GC DELETE is
 * conditional on the uid and the resourceVersion the decision was made from; a conflict sends the worker back to
 * a live read, a retry without the resourceVersion when only unrelated fields changed, or a retry with backoff.
 */

const id = (name: string) => makeId('v1', 'ConfigMap', 'ns1', name, `${name}uid`);
const [owner, keeper, child] = [id('owner'), id('keeper'), id('child')];
const childNode = node(child, { owners: [owner] });
const absent = ['v1/ConfigMap ns1/owner (owneruid)'];

/** The owner and the dependent observed, then the owner deleted and that observed: the dependent is queued. */
const ownerGone = [
  createObjectInClient(makeObject(owner)),
  createObjectInClient(makeObject(keeper)),
  createObjectInClient(makeObject(child, { owners: [owner] })),
  observe(owner),
  observe(keeper),
  observe(child),
  deleteObjectFromClient(owner),
  observe(owner),
  assertState({ graph: [node(keeper), childNode], attemptToDelete: [childNode], absentOwners: absent }),
];

/** A write racing the collector's next DELETE of the child: another client changes it first. */
const raceDelete = (change: (obj: KubeObject) => void) => scriptAnswer('delete', child, (c: FakeGcClient) => c.modify(child, change));
const label = (obj: KubeObject) => {
  obj.metadata.labels = { ...obj.metadata.labels, touched: String(Object.keys(obj.metadata.labels ?? {}).length) };
};
const adopt = (obj: KubeObject) => {
  obj.metadata.ownerReferences = [...(obj.metadata.ownerReferences ?? []), ownerRef(keeper)];
};

test('a dependent adopted after it was observed: the conditional DELETE conflicts and only the dangling reference goes (R4.27, R4.30)', async () => {
  await runSteps([
    ...ownerGone,
    raceDelete(adopt),
    processAttemptToDelete(1),
    assertState({
      actions: [
        'delete v1/configmaps ns1/child Background uid=childuid rv=1',
        'get v1/configmaps ns1/child',
        'get v1/configmaps ns1/keeper',
        'patch v1/configmaps ns1/child strategic {"metadata":{"uid":"childuid","ownerReferences":[{"$patch":"delete","uid":"owneruid"}]}}',
      ],
      graph: [node(keeper), childNode],
      absentOwners: absent,
    }),
    check('the child is kept, owned by the keeper only', (h) =>
      assert.deepEqual(
        h.client.current(child)?.metadata.ownerReferences?.map((r) => r.name),
        ['keeper'],
      ),
    ),
  ]);
});

test('a dependent changed only in unrelated fields is deleted by a retry without the resourceVersion (R4.30)', async () => {
  const h = await runSteps([
    ...ownerGone,
    raceDelete(label),
    raceDelete(label),
    processAttemptToDelete(1),
    assertState({
      actions: [
        'delete v1/configmaps ns1/child Background uid=childuid rv=1',
        'get v1/configmaps ns1/child',
        'delete v1/configmaps ns1/child Background uid=childuid rv=2',
        'get v1/configmaps ns1/child',
        'delete v1/configmaps ns1/child Background uid=childuid',
      ],
      graph: [node(keeper), childNode],
      absentOwners: absent,
    }),
    check('the child is gone', (c) => assert.equal(c.client.current(child), undefined)),
  ]);
  assert.equal(h.deletions, 1);
});

test('a dependent adopted between the live read and the DELETE is retried with backoff, then kept (R4.30)', async () => {
  const h = await runSteps([
    ...ownerGone,
    raceDelete(label),
    raceDelete(adopt),
    processAttemptToDelete(1),
    assertState({
      actions: [
        'delete v1/configmaps ns1/child Background uid=childuid rv=1',
        'get v1/configmaps ns1/child',
        'delete v1/configmaps ns1/child Background uid=childuid rv=2',
        'get v1/configmaps ns1/child',
      ],
      errors: [
        `${childNode}: Operation cannot be fulfilled on configmaps "child": Precondition failed: ResourceVersion in precondition: 2, ResourceVersion in object meta: 3`,
      ],
      graph: [node(keeper), childNode],
      attemptToDelete: [requeued(childNode, 'rate-limited')],
      absentOwners: absent,
    }),
    processAttemptToDelete(1),
    assertState({
      actions: [
        'delete v1/configmaps ns1/child Background uid=childuid rv=1',
        'get v1/configmaps ns1/child',
        'get v1/configmaps ns1/keeper',
        'patch v1/configmaps ns1/child strategic {"metadata":{"uid":"childuid","ownerReferences":[{"$patch":"delete","uid":"owneruid"}]}}',
      ],
      graph: [node(keeper), childNode],
      absentOwners: absent,
    }),
  ]);
  assert.equal(h.deletions, 0);
});
