import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Backend } from '../storage/backend.js';
import { componentProbes, componentStatus } from './component-probes.js';

describe('componentstatuses probes', () => {
  it('reports the scheduler only where it runs, and the storage by its health check', async () => {
    const failing = { checkHealth: async () => Promise.reject(new Error('context deadline exceeded')) } as unknown as Backend;
    const probes = componentProbes({ schedulerRunning: () => false, backend: failing });
    assert.deepEqual(
      probes.map((p) => p.name),
      ['scheduler', 'controller-manager', 'etcd-0'],
    );
    const results = await Promise.all(probes.map(async (p) => componentStatus(p.name, await p.probe())));
    assert.deepEqual(
      results.map((r) => (r.conditions as Record<string, unknown>[])[0]),
      [
        {
          type: 'Healthy',
          status: 'Unknown',
          error: 'no scheduler runs in this server: Cascade schedules pods only with --simulate-nodes',
        },
        { type: 'Healthy', status: 'True', message: 'ok' },
        { type: 'Healthy', status: 'False', error: 'context deadline exceeded' },
      ],
    );
  });

  it('counts a store without a health check (memory, SQLite) as healthy', async () => {
    const [, , etcd] = componentProbes({ schedulerRunning: () => true, backend: undefined });
    assert.deepEqual(await etcd?.probe(), { result: 'Success', message: 'ok', error: '' });
  });
});
