import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { APIGroupDiscoveryList, APIGroupList, APIResourceList } from '../discovery/types.js';
import { mergeAggregatedDiscovery, mergeApiGroup, mergeApiGroupList, type PriorityOf, type RemoteGroupVersion } from './discovery-merge.js';

/** The server's own priorities for the groups used here (src/discovery/group-order.ts values). */
const priorityOf: PriorityOf = (group) => {
  if (group === 'apps') return { group: 17800, version: 15 };
  if (group === 'apiregistration.k8s.io') return { group: 20001, version: 15 };
  return { group: 1000, version: 100 };
};

const LOCAL: APIGroupList = {
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: [
    {
      name: 'apiregistration.k8s.io',
      versions: [{ groupVersion: 'apiregistration.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apiregistration.k8s.io/v1', version: 'v1' },
    },
    { name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } },
    {
      name: 'stable.example.com',
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    },
  ],
};

const FLUNDERS: APIResourceList = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: 'wardle.example.com/v1alpha1',
  resources: [
    { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list', 'delete'], shortNames: ['fl'] },
    { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get', 'update'] },
  ],
};

const metrics: RemoteGroupVersion = {
  group: 'metrics.k8s.io',
  version: 'v1beta1',
  groupPriorityMinimum: 100,
  versionPriority: 100,
  resources: undefined,
};
const wardleAlpha: RemoteGroupVersion = {
  group: 'wardle.example.com',
  version: 'v1alpha1',
  groupPriorityMinimum: 2000,
  versionPriority: 10,
  resources: FLUNDERS,
};
const wardleBeta: RemoteGroupVersion = {
  group: 'wardle.example.com',
  version: 'v1beta1',
  groupPriorityMinimum: 2000,
  versionPriority: 15,
  resources: undefined,
};

describe('discovery merging', () => {
  test('/apis lists aggregated groups by groupPriorityMinimum then APIService name, versions by versionPriority', () => {
    const merged = mergeApiGroupList(LOCAL, [metrics, wardleAlpha, wardleBeta], priorityOf);
    assert.deepEqual(
      merged.groups.map((g) => g.name),
      ['apiregistration.k8s.io', 'apps', 'wardle.example.com', 'stable.example.com', 'metrics.k8s.io'],
    );
    const wardle = merged.groups.find((g) => g.name === 'wardle.example.com');
    assert.deepEqual(
      wardle?.versions.map((v) => v.version),
      ['v1beta1', 'v1alpha1'],
    );
    assert.deepEqual(wardle?.preferredVersion, { groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' });
    // Unavailable group-versions stay listed: clients discover them and report the failure.
    assert.ok(merged.groups.some((g) => g.name === 'metrics.k8s.io'));
  });

  test('/apis/<group> for an aggregated group; undefined for an unknown one', () => {
    const group = mergeApiGroup(undefined, 'metrics.k8s.io', [metrics, wardleAlpha], priorityOf);
    assert.deepEqual(group, {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'metrics.k8s.io',
      versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }],
      preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' },
    });
    assert.equal(mergeApiGroup(undefined, 'nothing.example.com', [metrics], priorityOf), undefined);
  });

  test('aggregated discovery: available versions carry the backend resources, unavailable ones are Stale without resources', () => {
    const local: APIGroupDiscoveryList = {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: [{ metadata: { name: 'apps', creationTimestamp: null }, versions: [{ version: 'v1', resources: [], freshness: 'Current' }] }],
    };
    const merged = mergeAggregatedDiscovery(local, [metrics, wardleAlpha, wardleBeta], priorityOf);
    assert.deepEqual(
      merged.items.map((i) => i.metadata.name),
      ['apps', 'wardle.example.com', 'metrics.k8s.io'],
    );
    const wardle = merged.items[1];
    assert.deepEqual(wardle?.versions[0], { version: 'v1beta1', freshness: 'Stale' });
    assert.deepEqual(wardle?.versions[1], {
      version: 'v1alpha1',
      resources: [
        {
          resource: 'flunders',
          responseKind: { group: '', version: '', kind: 'Flunder' },
          scope: 'Namespaced',
          singularResource: 'flunder',
          verbs: ['get', 'list', 'delete'],
          shortNames: ['fl'],
          subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Flunder' }, verbs: ['get', 'update'] }],
        },
      ],
      freshness: 'Current',
    });
    assert.deepEqual(merged.items[2]?.versions, [{ version: 'v1beta1', freshness: 'Stale' }]);
  });
});
