import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { expandCategory } from './categories.js';
import { served } from './test-fixtures.js';

describe('expandCategory (R7.14)', () => {
  it('expands "all" over the built-in catalog in discovery order, core first', () => {
    assert.deepEqual(expandCategory(BUILTIN_RESOURCES, 'all'), [
      { group: '', resource: 'pods' },
      { group: '', resource: 'replicationcontrollers' },
      { group: '', resource: 'services' },
      { group: 'apps', resource: 'daemonsets' },
      { group: 'apps', resource: 'deployments' },
      { group: 'apps', resource: 'replicasets' },
      { group: 'apps', resource: 'statefulsets' },
      { group: 'autoscaling', resource: 'horizontalpodautoscalers' },
      { group: 'batch', resource: 'cronjobs' },
      { group: 'batch', resource: 'jobs' },
    ]);
  });

  it('expands a custom category, listing a resource served in several versions once', () => {
    const resources = [
      ...BUILTIN_RESOURCES,
      served('example.com', 'v1', 'Widget', 'widgets', { categories: ['toys', 'all'] }),
      served('example.com', 'v1beta1', 'Widget', 'widgets', { categories: ['toys'] }),
      served('example.com', 'v1', 'Gadget', 'gadgets', { categories: ['toys'] }),
    ];
    assert.deepEqual(expandCategory(resources, 'toys'), [
      { group: 'example.com', resource: 'gadgets' },
      { group: 'example.com', resource: 'widgets' },
    ]);
    assert.deepEqual(expandCategory(resources, 'all')?.at(-1), { group: 'example.com', resource: 'widgets' });
    assert.deepEqual(expandCategory(resources, 'api-extensions'), [
      { group: 'apiregistration.k8s.io', resource: 'apiservices' },
      { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' },
      { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' },
      { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' },
      { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
      { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    ]);
  });

  it('does not expand an unknown category', () => {
    assert.equal(expandCategory(BUILTIN_RESOURCES, 'nothing'), undefined);
    assert.equal(expandCategory([], 'all'), undefined);
  });
});
