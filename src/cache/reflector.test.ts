import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { FakeClock } from '../workqueue/clock.js';
import { createReflector, type Reflector, type ReflectorHandler } from './reflector.js';
import { createStore, type Store } from './store.js';
import { CONFIGMAPS, ScriptedClient, configMap, configMapList, settle } from './testing/scripted-client.js';

interface Harness {
  client: ScriptedClient;
  clock: FakeClock;
  store: Store;
  events: string[];
  errors: unknown[];
  reflector: Reflector;
}

function harness(configure: (client: ScriptedClient) => void, pageSize?: number): Harness {
  const client = new ScriptedClient();
  configure(client);
  const clock = new FakeClock();
  const store = createStore();
  const events: string[] = [];
  const errors: unknown[] = [];
  const id = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`;
  const handler: ReflectorHandler = {
    onAdd: (o) => events.push(`add ${id(o)}`),
    onUpdate: (old, o) => events.push(`update ${id(old)} -> ${o.metadata.resourceVersion}`),
    onDelete: (o) => events.push(`delete ${id(o)}`),
  };
  const reflector = createReflector({ client, ref: CONFIGMAPS, store, handler, clock, pageSize, onError: (e) => errors.push(e) });
  return { client, clock, store, events, errors, reflector };
}

const expiredStatus = new StatusError(410, 'Expired', 'too old resource version: 5 (9)').toStatus();

test('lists page by page, fills the store, then watches from the list resourceVersion with bookmarks', async () => {
  const h = harness((c) => {
    c.listResults.push(configMapList('7', [configMap('a', 'one', '3')], 'token-1'), configMapList('7', [configMap('b', 'two', '5')]));
  }, 1);
  assert.equal(h.reflector.hasSynced(), false);
  h.reflector.start();
  const watch = await h.client.watchNumber(1);
  assert.deepEqual(h.client.actions, [
    'list configmaps ns= limit=1 continue=',
    'list configmaps ns= limit=1 continue=token-1',
    'watch configmaps ns= rv=7 bookmarks=true',
  ]);
  assert.equal(h.reflector.hasSynced(), true);
  assert.equal(await h.reflector.whenSynced(), true);
  assert.equal(h.reflector.lastSyncResourceVersion, '7');
  assert.deepEqual(h.store.listKeys().sort(), ['a/one', 'b/two']);
  assert.equal(h.store.getByKey('a/one')?.kind, 'ConfigMap', 'list items get the kind of the list');
  assert.equal(h.store.getByKey('a/one')?.apiVersion, 'v1');
  assert.deepEqual(h.events, ['add a/one@3', 'add b/two@5']);
  assert.equal(watch.options.allowWatchBookmarks, true);
  await h.reflector.stop();
  assert.equal(watch.stopped, true);
});

test('the default page size is 500', async () => {
  const h = harness((c) => c.listResults.push(configMapList('1', [])));
  h.reflector.start();
  await h.client.watchNumber(1);
  assert.equal(h.client.actions[0], 'list configmaps ns= limit=500 continue=');
  await h.reflector.stop();
});

test('watch events update the store and are reported; bookmarks only move the resourceVersion', async () => {
  const h = harness((c) => c.listResults.push(configMapList('10', [configMap('a', 'one', '3')])));
  h.reflector.start();
  const watch = await h.client.watchNumber(1);
  watch.push(
    { type: 'ADDED', object: configMap('a', 'two', '11') },
    { type: 'MODIFIED', object: configMap('a', 'one', '12', { k: 'v' }) },
    { type: 'DELETED', object: configMap('a', 'two', '13') },
    { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '20' } } },
  );
  await settle();
  assert.deepEqual(h.events, ['add a/one@3', 'add a/two@11', 'update a/one@3 -> 12', 'delete a/two@13']);
  assert.deepEqual(h.store.listKeys(), ['a/one']);
  assert.deepEqual(h.store.getByKey('a/one')?.data, { k: 'v' });
  assert.equal(h.reflector.lastSyncResourceVersion, '20');
  await h.reflector.stop();
});

test('a watch that ends normally is re-opened from the last resourceVersion seen, without a relist', async () => {
  const h = harness((c) => c.listResults.push(configMapList('10', [])));
  h.reflector.start();
  const first = await h.client.watchNumber(1);
  first.push({ type: 'ADDED', object: configMap('a', 'one', '11') }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } });
  first.end();
  const second = await h.client.watchNumber(2);
  assert.equal(second.options.resourceVersion, '15');
  assert.deepEqual(h.client.actions.filter((a) => a.startsWith('list')).length, 1);
  assert.deepEqual(h.errors, []);
  await h.reflector.stop();
});

test('a 410 ERROR event relists: objects that vanished in the gap are deleted with their last known state (R-watch 410)', async () => {
  const h = harness((c) => {
    c.listResults.push(
      configMapList('10', [configMap('a', 'stays', '3'), configMap('a', 'changes', '4'), configMap('a', 'vanishes', '5')]),
      configMapList('30', [configMap('a', 'stays', '3'), configMap('a', 'changes', '25'), configMap('a', 'appears', '28')]),
    );
  });
  h.reflector.start();
  const first = await h.client.watchNumber(1);
  h.events.length = 0;
  first.push({ type: 'ERROR', object: expiredStatus });
  const second = await h.client.watchNumber(2);
  assert.equal(first.stopped, true);
  assert.equal(second.options.resourceVersion, '30');
  assert.deepEqual(h.events, ['delete a/vanishes@5', 'update a/changes@4 -> 25', 'add a/appears@28']);
  assert.deepEqual(h.store.listKeys().sort(), ['a/appears', 'a/changes', 'a/stays']);
  assert.equal(h.clock.now(), 0, 'the first relist does not wait');
  assert.deepEqual(h.errors, []);
  await h.reflector.stop();
});

test('a 410 StatusError from the watch call relists too', async () => {
  const h = harness((c) => {
    c.listResults.push(configMapList('10', [configMap('a', 'one', '3')]), configMapList('40', []));
    c.watchErrors.push(new StatusError(410, 'Expired', 'too old resource version'));
  });
  h.reflector.start();
  const watch = await h.client.watchNumber(1);
  assert.equal(watch.options.resourceVersion, '40');
  assert.deepEqual(h.events, ['add a/one@3', 'delete a/one@3']);
  await h.reflector.stop();
});

test('410 again right after a relist waits before relisting once more', async () => {
  const h = harness((c) => {
    c.listResults.push(configMapList('10', []), configMapList('11', []), configMapList('12', []));
    c.watchErrors.push(new StatusError(410, 'Expired', 'gone'), new StatusError(410, 'Expired', 'gone'));
  });
  h.reflector.start();
  await settle(20);
  assert.equal(h.client.actions.filter((a) => a.startsWith('list')).length, 2);
  h.clock.advance(1999);
  await settle();
  assert.equal(h.client.actions.filter((a) => a.startsWith('list')).length, 2);
  h.clock.advance(1);
  const watch = await h.client.watchNumber(1);
  assert.equal(watch.options.resourceVersion, '12');
  await h.reflector.stop();
});

test('other watch errors back off exponentially (1 s, 2 s, 4 s) and re-watch from the last resourceVersion', async () => {
  const h = harness((c) => {
    c.listResults.push(configMapList('10', []));
    c.watchErrors.push(
      new StatusError(500, 'InternalError', 'boom'),
      new StatusError(500, 'InternalError', 'boom'),
      new Error('connection reset'),
    );
  });
  h.reflector.start();
  const watchCalls = (): number => h.client.actions.filter((a) => a.startsWith('watch')).length;
  await settle();
  assert.equal(watchCalls(), 1);
  for (const [wait, calls] of [
    [1000, 2],
    [2000, 3],
    [4000, 4],
  ] as const) {
    h.clock.advance(wait - 1);
    await settle();
    assert.equal(watchCalls(), calls - 1, `before ${wait} ms`);
    h.clock.advance(1);
    await settle();
    assert.equal(watchCalls(), calls, `after ${wait} ms`);
  }
  const watch = await h.client.watchNumber(1);
  assert.equal(watch.options.resourceVersion, '10');
  assert.equal(h.errors.length, 3);
  assert.equal(h.client.actions.filter((a) => a.startsWith('list')).length, 1, 'no relist for non-410 errors');
  await h.reflector.stop();
});

test('an ERROR event other than 410 is reported and retried after the backoff', async () => {
  const h = harness((c) => c.listResults.push(configMapList('10', [])));
  h.reflector.start();
  const first = await h.client.watchNumber(1);
  first.push({ type: 'ERROR', object: new StatusError(500, 'InternalError', 'etcd went away').toStatus() });
  await settle();
  assert.equal(h.errors.length, 1);
  assert.equal((h.errors[0] as StatusError).code, 500);
  h.clock.advance(1000);
  const second = await h.client.watchNumber(2);
  assert.equal(second.options.resourceVersion, '10');
  await h.reflector.stop();
});

test('the backoff is capped at 30 s and reset by the next event', async () => {
  const h = harness((c) => {
    c.listResults.push(configMapList('10', []));
    for (let i = 0; i < 7; i++) c.watchErrors.push(new Error(`failure ${i}`));
  });
  h.reflector.start();
  await settle();
  // 1 + 2 + 4 + 8 + 16 + 30 + 30 seconds for seven failures.
  for (const wait of [1000, 2000, 4000, 8000, 16000, 30000]) {
    h.clock.advance(wait);
    await settle();
  }
  assert.equal(h.client.watches.length, 0);
  h.clock.advance(29_999);
  await settle();
  assert.equal(h.client.watches.length, 0);
  h.clock.advance(1);
  const watch = await h.client.watchNumber(1);
  watch.push({ type: 'ADDED', object: configMap('a', 'x', '11') });
  await settle();
  h.client.watchErrors.push(new Error('after progress'));
  watch.end();
  await settle();
  h.clock.advance(1000);
  await h.client.watchNumber(2);
  await h.reflector.stop();
});

test('a watch that ends at once without events counts as a failure and waits', async () => {
  const h = harness((c) => c.listResults.push(configMapList('10', [])));
  h.reflector.start();
  (await h.client.watchNumber(1)).end();
  await settle();
  assert.equal(h.client.watches.length, 1);
  assert.match(String(h.errors[0]), /very short watch/);
  h.clock.advance(1000);
  await h.client.watchNumber(2);
  await h.reflector.stop();
});

test('a failed list is retried after the backoff, and hasSynced waits for it', async () => {
  const h = harness((c) =>
    c.listResults.push(new StatusError(503, 'ServiceUnavailable', 'not ready'), configMapList('10', [configMap('a', 'one', '1')])),
  );
  h.reflector.start();
  await settle();
  assert.equal(h.reflector.hasSynced(), false);
  assert.equal(h.errors.length, 1);
  h.clock.advance(1000);
  await h.client.watchNumber(1);
  assert.equal(h.reflector.hasSynced(), true);
  assert.deepEqual(h.store.listKeys(), ['a/one']);
  await h.reflector.stop();
});

test('stop during a backoff wait cancels the timer; whenSynced resolves false if never synced', async () => {
  const h = harness((c) => c.listResults.push(new Error('down')));
  h.reflector.start();
  await settle();
  assert.equal(h.clock.pendingTimers(), 1);
  await h.reflector.stop();
  assert.equal(h.clock.pendingTimers(), 0);
  assert.equal(await h.reflector.whenSynced(), false);
  assert.throws(() => h.reflector.start(), /cannot be restarted/);
});

test('the namespace is passed to list and watch', async () => {
  const client = new ScriptedClient();
  client.listResults.push(configMapList('5', []));
  const reflector = createReflector({
    client,
    ref: CONFIGMAPS,
    namespace: 'team',
    store: createStore(),
    handler: { onAdd() {}, onUpdate() {}, onDelete() {} },
    clock: new FakeClock(),
  });
  reflector.start();
  await client.watchNumber(1);
  assert.deepEqual(client.actions, ['list configmaps ns=team limit=500 continue=', 'watch configmaps ns=team rv=5 bookmarks=true']);
  await reflector.stop();
});
