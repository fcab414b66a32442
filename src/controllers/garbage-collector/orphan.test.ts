import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conflict, StatusError } from '../../api/errors.js';
import { ALL_VERBS, type ResourceInfo } from '../../api/resource-info.js';
import { makeId, makeObject, node, requeued } from './testing/fixtures.js';
import {
  assertState,
  check,
  createObjectInClient,
  deleteInClient,
  deleteObjectFromClient,
  observe,
  processAttemptToOrphan,
  runSteps,
  scriptAnswer,
} from './testing/steps.js';

/**
 * The orphan finalizer step by step (R4.14, R4.34–R4.36; scenarios GC-OR-01..03): the owner's references are
 * taken off every dependent in the graph (a strategic merge patch for built-in kinds, a JSON merge patch for
 * custom resources, which take no strategic patch), then the finalizer goes and the owner with it.
 */

const WIDGETS: ResourceInfo = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  listKind: 'WidgetList',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: [],
  categories: [],
  subresources: [],
  nameFormat: 'dns1123-subdomain',
  definition: 'com.example.v1.Widget',
  custom: true,
};

const id = (name: string) => makeId('v1', 'ConfigMap', 'ns1', name, `${name}uid`);
const owner = id('owner');
const orphaning = node(owner, { beingDeleted: true });
const finalizerRemoved = [
  'get v1/configmaps ns1/owner',
  'patch v1/configmaps ns1/owner merge {"metadata":{"resourceVersion":"2","finalizers":[]}}',
];
const stripOwner = (name: string) =>
  `patch v1/configmaps ns1/${name} strategic {"metadata":{"uid":"${name}uid","ownerReferences":[{"$patch":"delete","uid":"owneruid"}]}}`;
const noOwners = (what: typeof owner) =>
  check(`${what.name} is kept without ownerReferences`, (h) =>
    assert.deepEqual(h.client.current(what)?.metadata.ownerReferences, undefined),
  );

test('orphaning strips the owner from built-in and custom dependents, then drops the finalizer (GC-OR-01, R4.34, R4.35)', async () => {
  const dependent = id('dependent');
  const widget = makeId('example.com/v1', 'Widget', 'ns1', 'widget', 'widgetuid');
  await runSteps(
    [
      createObjectInClient(makeObject(owner)),
      createObjectInClient(makeObject(dependent, { owners: [owner] })),
      createObjectInClient(makeObject(widget, { owners: [owner] })),
      observe(owner),
      observe(dependent),
      observe(widget),
      deleteInClient(owner, 'Orphan'),
      observe(owner),
      // R4.14: only attemptToOrphan hears of it.
      assertState({
        graph: [orphaning, node(dependent, { owners: [owner] }), node(widget, { owners: [owner] })],
        attemptToOrphan: [orphaning],
      }),
      processAttemptToOrphan(1),
      assertState({
        actions: [
          stripOwner('dependent'),
          'get example.com/v1/widgets ns1/widget',
          'patch example.com/v1/widgets ns1/widget merge {"metadata":{"resourceVersion":"1","ownerReferences":null}}',
          ...finalizerRemoved,
        ],
        graph: [orphaning, node(dependent, { owners: [owner] }), node(widget, { owners: [owner] })],
      }),
      observe(dependent),
      observe(widget),
      observe(owner),
      // R4.36: dependents without owners are never collected; nothing is queued.
      assertState({ graph: [node(dependent), node(widget)] }),
      noOwners(dependent),
      check('the widget is kept without ownerReferences', (h) =>
        assert.equal(h.client.current(widget)?.metadata.ownerReferences, undefined),
      ),
    ],
    { extraResources: [WIDGETS] },
  );
});

test('orphaning tolerates dependents gone or recreated, and retries the owner with backoff on any other failure (R4.34)', async () => {
  const [gone, recreated, flaky] = [id('gone'), id('recreated'), id('flaky')];
  const recreatedAnew = makeId('v1', 'ConfigMap', 'ns1', 'recreated', 'recreateduid2');
  const graph = [orphaning, node(gone, { owners: [owner] }), node(recreated, { owners: [owner] }), node(flaky, { owners: [owner] })];
  await runSteps([
    createObjectInClient(makeObject(owner)),
    observe(owner),
    ...[gone, recreated, flaky].flatMap((d) => [createObjectInClient(makeObject(d, { owners: [owner] })), observe(d)]),
    deleteInClient(owner, 'Orphan'),
    observe(owner),
    // The informer has not delivered these yet: one dependent deleted, one deleted and recreated without the owner.
    deleteObjectFromClient(gone),
    deleteObjectFromClient(recreated),
    createObjectInClient(makeObject(recreatedAnew)),
    scriptAnswer('patch', flaky, new StatusError(500, 'InternalError', 'etcdserver: request timed out')),
    processAttemptToOrphan(1),
    assertState({
      actions: [stripOwner('gone'), stripOwner('recreated'), stripOwner('flaky')],
      errors: [`${orphaning}: etcdserver: request timed out`],
      graph,
      attemptToOrphan: [requeued(orphaning, 'rate-limited')],
    }),
    check('the owner keeps its orphan finalizer', (h) => assert.deepEqual(h.client.current(owner)?.metadata.finalizers, ['orphan'])),
    processAttemptToOrphan(1),
    assertState({ actions: [stripOwner('gone'), stripOwner('recreated'), stripOwner('flaky'), ...finalizerRemoved], graph }),
    noOwners(flaky),
    check('the recreated dependent was not touched', (h) => assert.equal(h.client.current(recreatedAnew)?.metadata.resourceVersion, '1')),
  ]);
});

test('orphaning an owner without dependents re-reads and retries the finalizer removal on a conflict (R4.35)', async () => {
  await runSteps([
    createObjectInClient(makeObject(owner)),
    observe(owner),
    deleteInClient(owner, 'Orphan'),
    observe(owner),
    scriptAnswer('patch', owner, conflict({ group: '', resource: 'configmaps' }, 'owner', 'the object has been modified')),
    processAttemptToOrphan(1),
    assertState({ actions: [...finalizerRemoved, ...finalizerRemoved], graph: [orphaning] }),
    check('the owner is gone', (h) => assert.equal(h.client.current(owner), undefined)),
  ]);
});
