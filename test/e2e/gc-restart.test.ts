import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import { createInProcessClient } from '../../src/server/in-process-client.js';
import type { ApiClient } from '../../src/client/interface.js';
import { BUILTIN_DEFINITIONS } from '../../src/kinds/definitions.js';
import { startApiServer } from '../../src/server/api-server.js';
import type { Backend } from '../../src/storage/backend.js';
import { createMemoryBackend } from '../../src/storage/memory/backend.js';
import { waitFor } from '../../src/embed/index.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const NS = 'default';

function ownerRef(owner: KubeObject): NonNullable<KubeObject['metadata']['ownerReferences']>[number] {
  return { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '' };
}

async function count(client: ApiClient, labelSelector: string): Promise<number> {
  return (await client.list(CONFIGMAPS, NS, { labelSelector })).items.length;
}

/**
 * Issue 4, item 9: a collector stopped in the middle of a cascade and started again on the same storage rebuilds
 * its graph from lists and finishes the work; a dependent that still has a live owner is never deleted.
 */
describe('garbage collector restart safety', () => {
  for (const stopAfter of [50, 400, 900]) {
    it(`finishes a background cascade after a restart once ${stopAfter} of 1000 dependents are gone`, async () => {
      const backend = createMemoryBackend();
      // Each server closes its backend on stop; the storage must outlive the first one.
      const shared: Backend = new Proxy(backend, { get: (t, p, r) => (p === 'close' ? async () => {} : Reflect.get(t, p, r)) });
      const first = await startApiServer({ backend: shared, port: 0 });
      const client = createInProcessClient(first.registry, BUILTIN_DEFINITIONS);
      const owner = await client.create(CONFIGMAPS, NS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
      const keeper = await client.create(CONFIGMAPS, NS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keeper' } });
      for (let i = 0; i < 1000; i++) {
        await client.create(CONFIGMAPS, NS, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `dep-${i}`, labels: { role: 'dep' }, ownerReferences: [ownerRef(owner)] },
        });
      }
      for (let i = 0; i < 100; i++) {
        await client.create(CONFIGMAPS, NS, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `shared-${i}`, labels: { role: 'shared' }, ownerReferences: [ownerRef(owner), ownerRef(keeper)] },
        });
      }
      await waitFor(() => (first.controllers.garbageCollector?.builder.graph.size ?? 0) >= 1102 || undefined, {
        timeoutMs: 10_000,
        what: 'the graph to hold every object',
      });
      await client.delete(CONFIGMAPS, NS, 'owner', { propagationPolicy: 'Background' });
      await waitFor(async () => ((await count(client, 'role=dep')) <= 1000 - stopAfter ? true : undefined), {
        timeoutMs: 10_000,
        what: `${stopAfter} dependents to go`,
      });
      await first.close();

      const second = await startApiServer({ backend, port: 0 });
      try {
        const after = createInProcessClient(second.registry, BUILTIN_DEFINITIONS);
        await waitFor(async () => ((await count(after, 'role=dep')) === 0 ? true : undefined), {
          timeoutMs: 15_000,
          what: 'the rest of the cascade after the restart',
        });
        const shared = (await after.list(CONFIGMAPS, NS, { labelSelector: 'role=shared' })).items;
        assert.equal(shared.length, 100, 'dependents with a live second owner are never deleted (R4.37)');
        await waitFor(
          async () => {
            const refs = (await after.list(CONFIGMAPS, NS, { labelSelector: 'role=shared' })).items.map(
              (o) => o.metadata.ownerReferences ?? [],
            );
            return refs.every((r) => r.length === 1 && r[0]?.uid === keeper.metadata.uid) ? true : undefined;
          },
          { timeoutMs: 15_000, what: 'references to the deleted owner to be pruned (R4.27)' },
        );
      } finally {
        await second.close();
      }
    });
  }
});
