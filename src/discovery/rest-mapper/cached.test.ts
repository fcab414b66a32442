import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceInfo } from '../../api/resource-info.js';
import { createCachedRestMapper } from './cached.js';
import { NoResourceMatchError } from './errors.js';
import { mappingForArgument, ResourceTypeNotFoundError } from './mapping-for-argument.js';
import { served } from './test-fixtures.js';

const pods = served('', 'v1', 'Pod', 'pods');
const widgets = served('example.com', 'v1', 'Widget', 'widgets', { shortNames: ['wd'] });

/** A discovery source whose answer tests can change, counting fetches, on a clock tests move by hand. */
function fakeDiscovery(initial: ResourceInfo[]) {
  const state = { served: initial, fetches: 0, now: 0, failNext: false };
  const discover = async (): Promise<readonly ResourceInfo[]> => {
    state.fetches += 1;
    if (state.failNext) {
      state.failNext = false;
      throw new Error('discovery unavailable');
    }
    return state.served;
  };
  const mapper = createCachedRestMapper(discover, { minRefreshIntervalMs: 1000, now: () => state.now });
  return { state, mapper };
}

describe('createCachedRestMapper (R7.15–R7.18, D10)', () => {
  it('fetches discovery lazily, once, even for concurrent first lookups', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    assert.equal(state.fetches, 0);
    const results = await Promise.all([
      mapper.resourceFor({ resource: 'pods' }),
      mapper.kindFor({ resource: 'pod' }),
      mapper.restMapping({ group: '', kind: 'Pod' }),
    ]);
    assert.equal(state.fetches, 1);
    assert.deepEqual(results[0], { group: '', version: 'v1', resource: 'pods' });
    assert.equal(results[2].scope, 'namespace');
  });

  it('finds a resource added after the first load by refreshing on a miss', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    await mapper.resourceFor({ resource: 'pods' });
    state.served = [pods, widgets];
    state.now = 1000;
    assert.deepEqual(await mapper.resourceFor({ resource: 'widgets' }), {
      group: 'example.com',
      version: 'v1',
      resource: 'widgets',
    });
    assert.equal(state.fetches, 2);
    assert.deepEqual((await mapper.resourcesFor({ resource: 'widget' })).length, 1);
    assert.equal(state.fetches, 2);
  });

  it('a typo refreshes discovery at most once per interval', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    await mapper.resourceFor({ resource: 'pods' });
    for (let i = 0; i < 50; i += 1) {
      await assert.rejects(mapper.resourceFor({ resource: 'podz' }), NoResourceMatchError);
    }
    assert.equal(state.fetches, 1, 'no refetch right after the load');
    state.now = 999;
    await assert.rejects(mapper.kindsFor({ resource: 'podz' }), NoResourceMatchError);
    assert.equal(state.fetches, 1);
    state.now = 1000;
    for (let i = 0; i < 50; i += 1) {
      await assert.rejects(mapper.restMappings({ group: '', kind: 'Podz' }), { name: 'NoKindMatchError' });
    }
    assert.equal(state.fetches, 2, 'one refetch once the interval has passed');
  });

  it('concurrent misses share one refresh', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    await mapper.resourceFor({ resource: 'pods' });
    state.served = [pods, widgets];
    state.now = 5000;
    const found = await Promise.all([
      mapper.resourceFor({ resource: 'widgets' }),
      mapper.kindFor({ resource: 'widget' }),
      mapper.restMapping({ group: 'example.com', kind: 'Widget' }),
    ]);
    assert.equal(state.fetches, 2);
    assert.deepEqual(found[1], { group: 'example.com', version: 'v1', kind: 'Widget' });
  });

  it('does not refresh for errors other than no-match', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    state.now = 5000;
    await assert.rejects(mapper.resourceFor({ resource: '' }), { message: 'a resource must be present, got: /, Resource=' });
    state.now = 10000;
    await assert.rejects(mapper.resourceFor({ resource: '' }), { message: 'a resource must be present, got: /, Resource=' });
    assert.equal(state.fetches, 1);
  });

  it('retries a failed load after the interval instead of caching the failure forever', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    state.failNext = true;
    await assert.rejects(mapper.resourceFor({ resource: 'pods' }), { message: 'discovery unavailable' });
    await assert.rejects(mapper.resourceFor({ resource: 'pods' }), { message: 'discovery unavailable' });
    assert.equal(state.fetches, 1);
    state.now = 1000;
    assert.equal((await mapper.resourceFor({ resource: 'pods' })).resource, 'pods');
    assert.equal(state.fetches, 2);
  });

  it('keeps serving the old data when a refresh fails', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    await mapper.resourceFor({ resource: 'pods' });
    state.now = 1000;
    state.failNext = true;
    await assert.rejects(mapper.resourceFor({ resource: 'widgets' }), { message: 'discovery unavailable' });
    assert.equal((await mapper.resourceFor({ resource: 'pods' })).resource, 'pods');
    assert.equal(state.fetches, 2);
  });

  it('invalidate forces the next lookup to fetch, whatever the interval', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    await mapper.resourceFor({ resource: 'pods' });
    state.served = [pods, widgets];
    mapper.invalidate();
    assert.equal((await mapper.resourceFor({ resource: 'widgets' })).group, 'example.com');
    assert.equal(state.fetches, 2);
  });

  it('withRefresh runs kubectl argument resolution with its own refresh condition', async () => {
    const { state, mapper } = fakeDiscovery([pods]);
    const isUnknownType = (err: unknown): boolean => err instanceof ResourceTypeNotFoundError;
    await mapper.resourceFor({ resource: 'pods' });
    state.served = [pods, widgets];
    state.now = 1000;
    const mapping = await mapper.withRefresh((source) => mappingForArgument(source, 'wd'), isUnknownType);
    assert.deepEqual(mapping.resource, { group: 'example.com', version: 'v1', resource: 'widgets' });
    assert.equal(state.fetches, 2);
    await assert.rejects(
      mapper.withRefresh((source) => mappingForArgument(source, 'nothing'), isUnknownType),
      ResourceTypeNotFoundError,
    );
    assert.equal(state.fetches, 2);
  });
});
