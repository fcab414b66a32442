import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseControllersFlag } from './selection.js';

test('--controllers: * turns every controller on, -name turns one off (kube-controller-manager semantics)', () => {
  const all = parseControllersFlag('*');
  assert.ok(Object.values(all).every((on) => on === true));
  const some = parseControllersFlag('*,-replicaset,-deployment-controller');
  assert.equal(some.replicaSetController, false);
  assert.equal(some.deploymentController, false);
  assert.equal(some.replicationController, true);
  assert.equal(some.garbageCollector, true);
  const batch = parseControllersFlag('*,-job,-cronjob-controller,-ttl-after-finished');
  assert.deepEqual([batch.jobController, batch.cronJobController, batch.ttlAfterFinishedController], [false, false, false]);
  assert.equal(parseControllersFlag('*').ttlAfterFinishedController, true);
});

test('--controllers: a list without * runs only what it names', () => {
  const only = parseControllersFlag('replicaset,garbagecollector');
  assert.equal(only.replicaSetController, true);
  assert.equal(only.garbageCollector, true);
  assert.equal(only.namespaceController, false);
});

test("--controllers: an unknown name is refused with kube-controller-manager's message", () => {
  assert.throws(() => parseControllersFlag('*,-nope'), { message: '"nope" is not in the list of known controllers' });
});
