import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyExistsError } from './errors.js';
import { registerKeyType } from './key-types.js';
import { REQUEST_DURATION_BUCKETS, RequestMetrics } from './request-metrics.js';

describe('RequestMetrics (etcd_request_* on /metrics)', () => {
  it('counts requests and failures per operation; answers the storage contract expects are not failures', async () => {
    const metrics = new RequestMetrics();
    await metrics.measure('get', '/registry/k', async () => 'found');
    await assert.rejects(metrics.measure('create', '/registry/k', async () => Promise.reject(new KeyExistsError('/k'))));
    await assert.rejects(metrics.measure('create', '/registry/k', async () => Promise.reject(new Error('etcd is unreachable'))));
    const byOperation = new Map(metrics.snapshot().map((m) => [m.operation, m]));
    assert.equal(byOperation.get('get')?.requests, 1);
    assert.equal(byOperation.get('get')?.failures, 0);
    assert.equal(byOperation.get('create')?.requests, 2);
    assert.equal(byOperation.get('create')?.failures, 1);
  });

  it("labels each tally with the resource type of the call's key, as kube-apiserver's type label", async () => {
    registerKeyType('/registry/deployments/', 'deployments.apps');
    const metrics = new RequestMetrics();
    await metrics.measure('create', '/registry/deployments/default/web', async () => undefined);
    await metrics.measure('list', '/registry/deployments/', async () => undefined);
    await metrics.measure('create', '/registry/elsewhere/x', async () => undefined);
    assert.deepEqual(
      metrics.snapshot().map((m) => [m.operation, m.type, m.requests]),
      [
        ['create', 'deployments.apps', 1],
        ['list', 'deployments.apps', 1],
        ['create', '', 1],
      ],
    );
  });

  it('keeps a cumulative histogram over kube-apiserver buckets', async () => {
    const metrics = new RequestMetrics();
    await metrics.measure('list', undefined, async () => undefined);
    await metrics.measure('list', undefined, () => new Promise((resolve) => setTimeout(resolve, 30)));
    const [list] = metrics.snapshot();
    assert.equal(list?.bucketCounts.length, REQUEST_DURATION_BUCKETS.length);
    // 5 ms holds the quick call only; 50 ms and every larger bucket hold both.
    assert.equal(list?.bucketCounts[0], 1);
    assert.equal(list?.bucketCounts.at(-1), 2);
    assert.ok((list?.sumSeconds ?? 0) >= 0.03);
  });
});
