import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../../api/errors.js';
import { BUILTIN_RESOURCES } from '../../../kinds/index.js';
import { GraphNode } from '../graph.js';
import { FakeGcClient } from './fake-client.js';
import { addEvent, makeId, makeObject, node } from './fixtures.js';
import { GcHarness } from './harness.js';
import { StepQueue } from './step-queue.js';
import { assertState, createObjectInClient, processAttemptToDelete, processEvent, runSteps } from './steps.js';

/** The harness checks itself: a broken graph, a wrong state, an unused script must each fail the step test. */

const id = (name: string) => makeId('v1', 'ConfigMap', 'ns1', name, `${name}uid`);
const [owner, child] = [id('owner'), id('child')];

/** A harness with the owner and its child observed and linked. */
function linked(): GcHarness {
  const h = new GcHarness();
  h.processEvent(addEvent(makeObject(owner)));
  h.processEvent(addEvent(makeObject(child, { owners: [owner] })));
  assert.deepEqual(h.invariantViolations(), []);
  return h;
}

test('the invariant check finds edges that are not mirrored both ways', () => {
  const h = linked();
  h.nodeOf(owner).dependents.clear();
  assert.deepEqual(h.invariantViolations(), [
    'v1/ConfigMap ns1/child (childuid) names owner v1/ConfigMap ns1/owner (owneruid), which does not list it as a dependent',
  ]);
  const g = linked();
  g.nodeOf(child).owners = [];
  assert.deepEqual(g.invariantViolations(), [
    'v1/ConfigMap ns1/owner (owneruid) lists v1/ConfigMap ns1/child (childuid) as a dependent, but its owners do not name owneruid',
    "v1/ConfigMap ns1/child (childuid) owners differ from the observed object's ownerReferences",
  ]);
});

test('the invariant check finds nodes that contradict the informer', () => {
  const h = linked();
  h.graph.remove(h.nodeOf(child));
  assert.deepEqual(h.invariantViolations(), [
    'v1/ConfigMap ns1/owner (owneruid) lists v1/ConfigMap ns1/child (childuid) as a dependent, but that node left the graph',
    'the informer delivered childuid but the graph has no node for it',
  ]);
  const g = linked();
  g.graph.insert(new GraphNode(id('ghost'), [], { virtual: false, observed: makeObject(id('ghost')) }));
  assert.deepEqual(g.invariantViolations(), [
    'v1/ConfigMap ns1/ghost (ghostuid) is in the graph as observed, but the informer never delivered it',
  ]);
  const f = linked();
  f.nodeOf(owner).virtual = true;
  f.nodeOf(owner).observed = undefined;
  assert.deepEqual(f.invariantViolations(), [
    'virtual v1/ConfigMap ns1/owner (owneruid) is virtual although the informer delivered the object',
    'virtual v1/ConfigMap ns1/owner (owneruid) is virtual but nothing will verify it',
  ]);
});

test('a step test fails on the step that breaks an invariant, on a wrong state, and on a script never used', async () => {
  await assert.rejects(
    runSteps([
      processEvent(addEvent(makeObject(owner))),
      {
        name: 'corrupt',
        run: (h) => {
          h.nodeOf(owner).dependents.add(h.nodeOf(owner));
        },
      },
    ]),
    /^Error: step 1 \(corrupt\) broke graph invariants:\n {2}v1\/ConfigMap ns1\/owner \(owneruid\) lists v1\/ConfigMap ns1\/owner \(owneruid\) as a dependent, but its owners do not name owneruid$/,
  );
  await assert.rejects(runSteps([processEvent(addEvent(makeObject(owner))), assertState({})]), (err) => {
    assert.ok(err instanceof assert.AssertionError && err.message.startsWith('step 1 (assertState): '));
    return true;
  });
  await assert.rejects(
    runSteps([{ name: 'script', run: (h) => h.client.script('get', owner, new StatusError(500, 'InternalError', 'boom')) }]),
    /scripted answers never used: get v1\/configmaps ns1\/owner/,
  );
  await assert.rejects(
    runSteps([processAttemptToDelete(1)]),
    /step 0 \(processAttemptToDelete\(1\)\): asked to process 1 item\(s\) but only 0 wait/,
  );
});

test('a worker failure is reported and the item requeued with backoff, as the worker loop does', async () => {
  const h = await runSteps([
    createObjectInClient(makeObject(child, { owners: [owner] })),
    processEvent(addEvent(makeObject(child, { owners: [owner] }))),
    { name: 'script', run: (s) => s.client.script('get', owner, new StatusError(503, 'ServiceUnavailable', 'try later')) },
    processAttemptToDelete(1),
  ]);
  h.assertState({
    actions: ['get v1/configmaps ns1/owner'],
    errors: ['virtual v1/ConfigMap ns1/owner (owneruid): try later'],
    graph: [node(child, { owners: [owner] }), node(owner, { virtual: true })],
    attemptToDelete: ['virtual v1/ConfigMap ns1/owner (owneruid) [rate-limited]'],
  });
});

test('the step queue holds an item once, and one added while processed waits again after it is done', () => {
  const queue = new StepQueue();
  const [a, b] = [new GraphNode(owner, [], { virtual: true }), new GraphNode(child, [], { virtual: true })];
  queue.add(a);
  queue.add(b);
  queue.add(a);
  assert.deepEqual(
    queue.pending().map((i) => i.node),
    [a, b],
  );
  queue.allow(1);
  assert.equal(queue.tryGet(), a);
  assert.equal(queue.tryGet(), undefined, 'the allowance is spent');
  queue.addAfter(a, 100);
  queue.add(a);
  assert.ok(queue.holds(a));
  queue.done(a);
  assert.deepEqual(queue.pending(), [
    { node: b, via: 'add' },
    { node: a, via: 'after 100ms' },
  ]);
});

test('the fake client enforces preconditions, marks objects with GC finalizers and removes them with the last one', async () => {
  const client = new FakeGcClient(BUILTIN_RESOURCES);
  const ref = { group: '', version: 'v1', resource: 'configmaps' };
  client.put(makeObject(owner, { finalizers: ['example.com/x'] }));
  await assert.rejects(
    client.delete(ref, 'ns1', 'owner', { preconditions: { uid: 'other' } }),
    (err) => err instanceof StatusError && err.code === 409,
  );
  await assert.rejects(
    client.delete(ref, 'ns1', 'owner', { preconditions: { resourceVersion: '9' } }),
    (err) => err instanceof StatusError && err.code === 409,
  );
  await client.delete(ref, 'ns1', 'owner', { propagationPolicy: 'Foreground' });
  assert.deepEqual(client.current(owner)?.metadata.finalizers, ['example.com/x', 'foregroundDeletion']);
  await client.patch(ref, 'ns1', 'owner', 'merge', { metadata: { finalizers: ['example.com/x'] } });
  assert.equal(client.current(owner)?.metadata.resourceVersion, '3');
  client.modify(owner, (obj) => {
    obj.metadata.finalizers = [];
  });
  assert.equal(client.current(owner), undefined);
  assert.equal(client.lastState(owner.uid)?.metadata.resourceVersion, '4');
  await assert.rejects(client.get(ref, 'ns1', 'owner'), (err) => err instanceof StatusError && err.code === 404);
  await assert.rejects(client.get(ref, undefined, 'owner'), /addressed without a namespace/);
  assert.deepEqual(client.takeActions(), [
    'delete v1/configmaps ns1/owner default uid=other',
    'delete v1/configmaps ns1/owner default rv=9',
    'delete v1/configmaps ns1/owner Foreground',
    'patch v1/configmaps ns1/owner merge {"metadata":{"finalizers":["example.com/x"]}}',
    'get v1/configmaps ns1/owner',
    'get v1/configmaps owner',
  ]);
});
