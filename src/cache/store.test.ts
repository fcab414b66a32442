import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { objectKey, splitObjectKey } from './object-key.js';
import { createStore, NAMESPACE_INDEX, namespaceIndexFunc } from './store.js';

const obj = (namespace: string | undefined, name: string, labels: Record<string, string> = {}): KubeObject => ({
  metadata: namespace === undefined ? { name, labels } : { namespace, name, labels },
});

test('keys are namespace/name, or name for cluster-scoped objects, and split back', () => {
  assert.equal(objectKey(obj('ns', 'a')), 'ns/a');
  assert.equal(objectKey(obj(undefined, 'node-1')), 'node-1');
  assert.deepEqual(splitObjectKey('ns/a'), { namespace: 'ns', name: 'a' });
  assert.deepEqual(splitObjectKey('node-1'), { namespace: undefined, name: 'node-1' });
  assert.throws(() => objectKey({ metadata: {} }), /metadata.name/);
});

test('upsert returns the replaced object and deleteByKey the removed one', () => {
  const store = createStore();
  const first = obj('ns', 'a');
  const second = obj('ns', 'a', { v: '2' });
  assert.equal(store.upsert(first), undefined);
  assert.equal(store.upsert(second), first);
  assert.equal(store.get('ns', 'a'), second);
  assert.equal(store.size, 1);
  assert.equal(store.deleteByKey('ns/a'), second);
  assert.equal(store.deleteByKey('ns/a'), undefined);
  assert.equal(store.size, 0);
});

test('indices follow updates and deletes', () => {
  const store = createStore({
    [NAMESPACE_INDEX]: namespaceIndexFunc,
    app: (o) => (o.metadata.labels?.app === undefined ? [] : [o.metadata.labels.app]),
  });
  store.upsert(obj('one', 'a', { app: 'web' }));
  store.upsert(obj('one', 'b', { app: 'db' }));
  store.upsert(obj('two', 'c', { app: 'web' }));
  store.upsert(obj(undefined, 'cluster'));
  assert.deepEqual(store.indexKeys('app', 'web').sort(), ['one/a', 'two/c']);
  assert.deepEqual(store.byIndex(NAMESPACE_INDEX, '').map(objectKey), ['cluster']);
  store.upsert(obj('one', 'a', { app: 'db' }));
  assert.deepEqual(store.indexKeys('app', 'web'), ['two/c']);
  assert.deepEqual(store.indexKeys('app', 'db').sort(), ['one/a', 'one/b']);
  store.deleteByKey('two/c');
  assert.deepEqual(store.listIndexFuncValues('app'), ['db']);
  assert.throws(() => store.byIndex('missing', 'x'), /index "missing" does not exist/);
});

test('indexers added later file the objects already there; a duplicate name is refused', () => {
  const store = createStore();
  store.upsert(obj('one', 'a'));
  store.upsert(obj('two', 'b'));
  store.addIndexers({ [NAMESPACE_INDEX]: namespaceIndexFunc });
  assert.deepEqual(store.byIndex(NAMESPACE_INDEX, 'two').map(objectKey), ['two/b']);
  assert.throws(() => store.addIndexers({ [NAMESPACE_INDEX]: namespaceIndexFunc }), /already exists/);
});

test('an object filed under the same value twice is listed once', () => {
  const store = createStore({ dup: () => ['x', 'x'] });
  store.upsert(obj('ns', 'a'));
  assert.deepEqual(store.indexKeys('dup', 'x'), ['ns/a']);
  store.deleteByKey('ns/a');
  assert.deepEqual(store.listIndexFuncValues('dup'), []);
});
