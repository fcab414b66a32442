import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { FakeClock } from '../workqueue/clock.js';
import { createInformerFactory } from './informer-factory.js';
import { createSharedInformer, type ResourceEventHandler } from './shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from './store.js';
import { CONFIGMAPS, ScriptedClient, configMap, configMapList, settle } from './testing/scripted-client.js';

function recorder(name: string, log: string[]): ResourceEventHandler {
  const id = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`;
  return {
    onAdd: (o) => log.push(`${name} add ${id(o)}`),
    onUpdate: (old, o) => log.push(`${name} update ${id(old)} -> ${o.metadata.resourceVersion}`),
    onDelete: (o) => log.push(`${name} delete ${id(o)}`),
  };
}

test('every handler sees every change in order; a handler added later first gets the cached objects as adds', async () => {
  const client = new ScriptedClient();
  client.listResults.push(configMapList('10', [configMap('a', 'one', '1')]));
  const informer = createSharedInformer(client, CONFIGMAPS, undefined, { clock: new FakeClock() });
  const log: string[] = [];
  informer.addEventHandler(recorder('h1', log));
  informer.start();
  const watch = await client.watchNumber(1);
  informer.addEventHandler(recorder('h2', log));
  watch.push({ type: 'MODIFIED', object: configMap('a', 'one', '11') }, { type: 'DELETED', object: configMap('a', 'one', '12') });
  await settle();
  assert.deepEqual(log, [
    'h1 add a/one@1',
    'h2 add a/one@1',
    'h1 update a/one@1 -> 11',
    'h2 update a/one@1 -> 11',
    'h1 delete a/one@12',
    'h2 delete a/one@12',
  ]);
  assert.equal(informer.lastSyncResourceVersion, '12');
  await informer.stop();
});

test('a removed handler hears nothing more; a throwing handler is reported and does not starve the others', async () => {
  const client = new ScriptedClient();
  client.listResults.push(configMapList('10', []));
  const errors: unknown[] = [];
  const informer = createSharedInformer(client, CONFIGMAPS, undefined, { clock: new FakeClock(), onError: (e) => errors.push(e) });
  const log: string[] = [];
  informer.addEventHandler({
    onAdd() {
      throw new Error('handler bug');
    },
  });
  const registration = informer.addEventHandler(recorder('gone', log));
  informer.addEventHandler(recorder('kept', log));
  informer.start();
  const watch = await client.watchNumber(1);
  registration.remove();
  watch.push({ type: 'ADDED', object: configMap('a', 'x', '11') });
  await settle();
  assert.deepEqual(log, ['kept add a/x@11']);
  assert.match(String(errors[0]), /handler bug/);
  assert.equal(informer.store.size, 1, 'the cache is updated regardless');
  await informer.stop();
});

test('the store has the indexers given at creation, and more can be added', async () => {
  const client = new ScriptedClient();
  client.listResults.push(configMapList('10', [configMap('a', 'one', '1'), configMap('b', 'two', '2'), configMap('b', 'three', '3')]));
  const informer = createSharedInformer(client, CONFIGMAPS, undefined, {
    clock: new FakeClock(),
    indexers: { [NAMESPACE_INDEX]: namespaceIndexFunc },
  });
  informer.addIndexers({ byUid: (o) => [o.metadata.uid ?? ''] });
  informer.start();
  assert.equal(await informer.whenSynced(), true);
  assert.deepEqual(
    informer.store
      .byIndex(NAMESPACE_INDEX, 'b')
      .map((o) => o.metadata.name)
      .sort(),
    ['three', 'two'],
  );
  assert.equal(informer.store.byIndex('byUid', 'uid-a-one')[0]?.metadata.name, 'one');
  await informer.stop();
});

test('the factory shares one informer per resource and namespace and waits for all of them to sync', async () => {
  const client = new ScriptedClient();
  client.listResults.push(configMapList('10', []), configMapList('11', []));
  const clock = new FakeClock();
  const errors: unknown[] = [];
  const factory = createInformerFactory(client, { clock, onError: (e) => errors.push(e) });
  const all = factory.informerFor(CONFIGMAPS);
  assert.equal(factory.informerFor(CONFIGMAPS), all);
  const scoped = factory.informerFor(CONFIGMAPS, 'team');
  assert.notEqual(scoped, all);
  factory.start();
  assert.equal(await factory.waitForSync(1000), true);
  assert.equal(clock.pendingTimers(), 0, 'the timeout timer is cancelled');
  // Informers asked for after start start at once; one that cannot sync makes waitForSync time out.
  client.listResults.push(new StatusError(503, 'ServiceUnavailable', 'down'));
  const pods = factory.informerFor({ group: '', version: 'v1', resource: 'pods' });
  pods.addEventHandler({});
  const waiting = factory.waitForSync(5000);
  await settle();
  clock.advance(5000);
  assert.equal(await waiting, false);
  assert.match(String(errors[0]), /down/);
  await factory.stop();
  assert.equal(clock.pendingTimers(), 0);
  assert.throws(() => factory.informerFor(CONFIGMAPS), /stopped/);
});
