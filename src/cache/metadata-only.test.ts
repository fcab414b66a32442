import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { metadataOnly } from './metadata-only.js';
import { createSharedInformer } from './shared-informer.js';
import { CONFIGMAPS, ScriptedClient, configMap, configMapList, settle } from './testing/scripted-client.js';

const withManagedFields = (obj: KubeObject): KubeObject => ({
  ...obj,
  metadata: { ...obj.metadata, uid: `uid-${obj.metadata.name}`, managedFields: [{ manager: 'kubectl', operation: 'Update' }] },
});

test('metadataOnly keeps the type and every metadata field but managedFields, and leaves its argument alone', () => {
  const obj = withManagedFields(configMap('ns', 'a', '3', { k: 'v' }));
  obj.metadata.labels = { l: '1' };
  const before = structuredClone(obj);
  assert.deepEqual(metadataOnly(obj), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: 'ns', name: 'a', resourceVersion: '3', uid: 'uid-a', labels: { l: '1' } },
  });
  assert.deepEqual(obj, before);
});

test('an informer with a transform caches and reports only what the transform keeps, from lists and watches alike', async () => {
  const client = new ScriptedClient();
  client.listResults.push(configMapList('10', [withManagedFields(configMap('ns', 'listed', '3', { big: 'x'.repeat(100) }))]));
  const informer = createSharedInformer(client, CONFIGMAPS, undefined, { transform: metadataOnly });
  const seen: KubeObject[] = [];
  informer.addEventHandler({ onAdd: (o) => seen.push(o), onUpdate: (_o, o) => seen.push(o), onDelete: (o) => seen.push(o) });
  informer.start();
  const watch = await client.watchNumber(1);
  watch.push(
    { type: 'ADDED', object: withManagedFields(configMap('ns', 'watched', '11', { big: 'y' })) },
    { type: 'MODIFIED', object: withManagedFields(configMap('ns', 'listed', '12', { big: 'z' })) },
    { type: 'DELETED', object: withManagedFields(configMap('ns', 'watched', '13', { big: 'y' })) },
  );
  await settle();
  for (const obj of [...seen, ...informer.store.list()]) {
    assert.equal(obj.data, undefined, `${obj.metadata.name} kept its data`);
    assert.equal(obj.metadata.managedFields, undefined);
    assert.equal(obj.kind, 'ConfigMap', 'list items get the list kind before the transform sees them');
  }
  assert.deepEqual(
    seen.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`),
    ['listed@3', 'watched@11', 'listed@12', 'watched@13'],
  );
  assert.deepEqual(informer.store.listKeys(), ['ns/listed']);
  await informer.stop();
});
