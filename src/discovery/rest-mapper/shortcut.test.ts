import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { expandResourceShortcut } from './shortcut.js';
import { served } from './test-fixtures.js';

const storage = served('storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', { namespaced: false, shortNames: ['sc'] });

describe('expandResourceShortcut (R7.13)', () => {
  it('leaves a name alone when nothing declares it', () => {
    assert.deepEqual(expandResourceShortcut([], { resource: 'storageclasses' }), {
      resource: { resource: 'storageclasses' },
      warnings: [],
    });
  });

  it('expands a short name to its group and plural', () => {
    assert.deepEqual(expandResourceShortcut([storage], { resource: 'sc' }).resource, {
      group: 'storage.k8s.io',
      resource: 'storageclasses',
    });
    assert.deepEqual(expandResourceShortcut([storage], { group: 'storage.k8s.io', resource: 'sc' }).resource, {
      group: 'storage.k8s.io',
      resource: 'storageclasses',
    });
  });

  it('the first resource in discovery order wins and the others are warned about once', () => {
    const resources = [
      served('acme.example.com', 'v1', 'SuperHPA', 'superhorizontalpodautoscalers', { shortNames: ['hpa'] }),
      served('acme.example.com', 'v1beta1', 'SuperHPA', 'superhorizontalpodautoscalers', { shortNames: ['hpa'] }),
      served('autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { shortNames: ['hpa'] }),
      served('autoscaling', 'v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { shortNames: ['hpa'] }),
    ];
    assert.deepEqual(expandResourceShortcut(resources, { resource: 'hpa' }), {
      resource: { group: 'autoscaling', resource: 'horizontalpodautoscalers' },
      warnings: ['short name "hpa" could also match lower priority resource superhorizontalpodautoscalers.acme.example.com'],
    });
  });

  it('a resource served in several versions is not an ambiguity', () => {
    const resources = [
      served('autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { shortNames: ['hpa'] }),
      served('autoscaling', 'v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { shortNames: ['hpa'] }),
    ];
    assert.deepEqual(expandResourceShortcut(resources, { resource: 'hpa' }).warnings, []);
  });

  it('an exact plural or singular name is never expanded', () => {
    const resources = [
      served('', 'v1', 'Pod', 'pods'),
      served('acme.example.com', 'v1', 'Poddler', 'poddlers', { shortNames: ['pods', 'pod'] }),
    ];
    assert.deepEqual(expandResourceShortcut(resources, { resource: 'pods' }), { resource: { resource: 'pods' }, warnings: [] });
    assert.deepEqual(expandResourceShortcut(resources, { resource: 'pod' }), { resource: { resource: 'pod' }, warnings: [] });
    // With a group given, only that group's names count as exact.
    assert.deepEqual(expandResourceShortcut(resources, { group: 'acme.example.com', resource: 'pods' }).resource, {
      group: 'acme.example.com',
      resource: 'poddlers',
    });
  });

  it('a short name declared by a resource overrides another resource of the same plural elsewhere', () => {
    const resources = [
      served('foo.example.com', 'v1', 'Deployment', 'deployments', { shortNames: ['dpl'] }),
      served('extensions.example.com', 'v1beta1', 'Deployment', 'deployments', { shortNames: ['deploy'] }),
    ];
    assert.deepEqual(expandResourceShortcut(resources, { resource: 'dpl' }).resource, {
      group: 'foo.example.com',
      resource: 'deployments',
    });
  });

  it('drops the version on a short-name hit, as kubectl does', () => {
    assert.deepEqual(expandResourceShortcut(BUILTIN_RESOURCES, { group: 'apps', version: 'v1', resource: 'rs' }).resource, {
      group: 'apps',
      resource: 'replicasets',
    });
  });

  it('with a group and no hit, matches short names by group prefix and keeps the version', () => {
    assert.deepEqual(expandResourceShortcut([storage], { group: 'storage', version: 'v1', resource: 'sc' }).resource, {
      group: 'storage.k8s.io',
      version: 'v1',
      resource: 'storageclasses',
    });
    assert.deepEqual(expandResourceShortcut([storage], { group: 'other', resource: 'sc' }).resource, {
      group: 'other',
      resource: 'sc',
    });
  });

  it('compares names as typed', () => {
    assert.deepEqual(expandResourceShortcut([storage], { resource: 'SC' }).resource, { resource: 'SC' });
  });

  it('built-in short names: ev prefers core events and warns about events.k8s.io', () => {
    assert.deepEqual(expandResourceShortcut(BUILTIN_RESOURCES, { resource: 'ev' }), {
      resource: { group: '', resource: 'events' },
      warnings: ['short name "ev" could also match lower priority resource events.events.k8s.io'],
    });
    assert.deepEqual(expandResourceShortcut(BUILTIN_RESOURCES, { group: 'events.k8s.io', resource: 'ev' }), {
      resource: { group: 'events.k8s.io', resource: 'events' },
      warnings: [],
    });
  });
});
