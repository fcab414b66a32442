import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { createInProcessClient } from '../server/in-process-client.js';
import type { ApiClient, ResourceRef, WatchStream } from '../client/interface.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { Registry } from '../registry/registry.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { createInformerFactory } from './informer-factory.js';

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };

/** Polls with real (ref'd) timers until `check` holds; bounded by `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The real in-process client, except that the test can cut the informer off: open watches end (as on a server
 * timeout) and new ones wait until the test reconnects them.
 */
function withPartition(client: ApiClient): { client: ApiClient; lists: string[]; disconnect(): void; reconnect(): void } {
  const open = new Set<WatchStream>();
  const lists: string[] = [];
  let connected: Promise<void> = Promise.resolve();
  let reconnect = (): void => {};
  return {
    lists,
    client: {
      ...client,
      list(ref, namespace, opts) {
        lists.push(`${ref.resource} ns=${namespace} limit=${opts?.limit}`);
        return client.list(ref, namespace, opts);
      },
      async watch(ref, namespace, opts) {
        await connected;
        const stream = await client.watch(ref, namespace, opts);
        open.add(stream);
        return stream;
      },
    },
    disconnect() {
      connected = new Promise((resolve) => {
        reconnect = resolve;
      });
      for (const stream of open) stream.stop();
      open.clear();
    },
    reconnect: () => reconnect(),
  };
}

test('an informer over the real registry lists, follows changes, and relists across a compacted gap', async () => {
  // A short history so a few writes compact the revision the informer last saw.
  const backend = createMemoryBackend({ historyLimit: 3 });
  const registry = new Registry({ backend, resources: BUILTIN_RESOURCES });
  const real = createInProcessClient(registry, BUILTIN_DEFINITIONS);
  const { client, lists, disconnect, reconnect } = withPartition(real);
  const cm = (name: string, data: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data,
  });

  await real.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'it' } });
  await real.create(CONFIGMAPS, 'it', cm('before', { v: '1' }));

  const errors: unknown[] = [];
  const factory = createInformerFactory(client, { onError: (e) => errors.push(e) });
  const informer = factory.informerFor(CONFIGMAPS, 'it');
  const log: string[] = [];
  informer.addEventHandler({
    onAdd: (o) => log.push(`add ${o.metadata.name}`),
    onUpdate: (old, o) => log.push(`update ${o.metadata.name} ${JSON.stringify(old.data)} -> ${JSON.stringify(o.data)}`),
    onDelete: (o) => log.push(`delete ${o.metadata.name} ${JSON.stringify(o.data)}`),
  });
  try {
    factory.start();
    assert.equal(await factory.waitForSync(5000), true);
    assert.equal(informer.store.get('it', 'before')?.kind, 'ConfigMap');
    assert.deepEqual(log, ['add before']);

    await real.create(CONFIGMAPS, 'it', cm('after', { v: '1' }));
    const before = await real.get(CONFIGMAPS, 'it', 'before');
    await real.update(CONFIGMAPS, 'it', { ...before, data: { v: '2' } });
    await real.delete(CONFIGMAPS, 'it', 'after');
    await until(() => log.length === 4, 'the watched changes');
    assert.deepEqual(log.slice(1), ['add after', 'update before {"v":"1"} -> {"v":"2"}', 'delete after {"v":"1"}']);
    assert.equal(informer.lastSyncResourceVersion, (await real.list(CONFIGMAPS, 'it')).metadata.resourceVersion);

    // The watch ends; while the informer is cut off, objects change and the history is compacted past its
    // resourceVersion, so the re-watch gets a 410 and the informer must relist to catch up.
    log.length = 0;
    disconnect();
    await real.create(CONFIGMAPS, 'it', cm('gap', { v: '1' }));
    await real.delete(CONFIGMAPS, 'it', 'before');
    for (let i = 0; i < 4; i++)
      await real.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `filler-${i}` } });
    reconnect();
    await until(() => log.length === 2, 'the relist after 410');
    assert.deepEqual(log, ['delete before {"v":"2"}', 'add gap']);
    assert.deepEqual(lists, ['configmaps ns=it limit=500', 'configmaps ns=it limit=500'], 'one list, one relist');
    assert.deepEqual(informer.store.listKeys(), ['it/gap']);
    assert.deepEqual(errors, []);
  } finally {
    await factory.stop();
    await backend.close();
  }
});
