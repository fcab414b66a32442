import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ObjectEvent } from '../api/types.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { Registry } from './registry.js';
import type { ResourceStore } from './store.js';
import { watchCollection } from './watch.js';

/** Watches with a `metadata.name=` field selector pass over other objects' events by key (issue 29). */
function storeOf(plural: string): ResourceStore {
  const registry = new Registry({ backend: createMemoryBackend(), resources: BUILTIN_RESOURCES });
  const found = registry.resources().find((r) => r.plural === plural && r.group === '');
  assert.ok(found);
  const store = registry.lookup(found.group, found.version, found.plural);
  assert.ok(store);
  return store;
}

async function collect(watch: AsyncIterable<ObjectEvent> & { stop(): void }, count: number): Promise<string[]> {
  const seen: string[] = [];
  for await (const e of watch) {
    seen.push(`${e.type} ${(e.object as KubeObject).metadata.name}`);
    if (seen.length === count) break;
  }
  watch.stop();
  return seen;
}

describe('watch by name', () => {
  it('sees only the named object, not names that end or start like it, through create, update and delete', async () => {
    const s = storeOf('configmaps');
    const cm = (name: string): KubeObject => ({ metadata: { name }, data: { a: '1' } });
    const watch = await watchCollection(s, undefined, { fieldSelector: 'metadata.name=ab' });
    for (const name of ['xab', 'b', 'abc', 'ab']) await s.create('default', cm(name));
    await s.create('other', cm('ab'));
    const updated = await s.get('default', 'ab');
    await s.update('default', 'ab', { ...updated, data: { a: '2' } });
    await s.delete('default', 'xab', {});
    await s.delete('default', 'ab', {});
    assert.deepEqual(await collect(watch, 4), ['ADDED ab', 'ADDED ab', 'MODIFIED ab', 'DELETED ab']);
  });

  it('applies the rest of the selection too, and works for cluster-scoped keys', async () => {
    const s = storeOf('namespaces');
    const watch = await watchCollection(s, undefined, { fieldSelector: 'metadata.name=team,status.phase=Active' });
    for (const name of ['myteam', 'team']) await s.create(undefined, { metadata: { name } });
    assert.deepEqual(await collect(watch, 1), ['ADDED team']);
  });
});
