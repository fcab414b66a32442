import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceInfo } from '../api/resource-info.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { aggregatedDiscovery } from './aggregated.js';
import { aggregatedDiscoveryCacheHeaders, discoveryETag, isNotModified } from './etag.js';

const gadget: ResourceInfo = {
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  listKind: 'GadgetList',
  plural: 'gadgets',
  singular: 'gadget',
  namespaced: false,
  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  shortNames: [],
  categories: [],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' },
  ],
  nameFormat: 'dns1123-subdomain',
  definition: 'com.example.v1.Gadget',
  custom: true,
};

describe('aggregated discovery', () => {
  it('R8.8 /api holds only the core group, with an empty name', () => {
    const list = aggregatedDiscovery(BUILTIN_RESOURCES, 'core');
    assert.equal(list.kind, 'APIGroupDiscoveryList');
    assert.equal(list.apiVersion, 'apidiscovery.k8s.io/v2');
    assert.deepEqual(list.metadata, {});
    assert.equal(list.items.length, 1);
    assert.equal(JSON.stringify(list.items[0]?.metadata), '{"creationTimestamp":null}');
    assert.deepEqual(
      list.items[0]?.versions.map((v) => [v.version, v.freshness]),
      [['v1', 'Current']],
    );
  });

  it('R8.8 /apis holds the named groups in priority order, custom groups last', () => {
    const list = aggregatedDiscovery([...BUILTIN_RESOURCES, gadget], 'groups');
    assert.deepEqual(
      list.items.map((g) => g.metadata.name),
      [
        'apiregistration.k8s.io',
        'apps',
        'events.k8s.io',
        'authentication.k8s.io',
        'authorization.k8s.io',
        'autoscaling',
        'batch',
        'certificates.k8s.io',
        'networking.k8s.io',
        'policy',
        'rbac.authorization.k8s.io',
        'storage.k8s.io',
        'admissionregistration.k8s.io',
        'apiextensions.k8s.io',
        'scheduling.k8s.io',
        'coordination.k8s.io',
        'node.k8s.io',
        'discovery.k8s.io',
        'flowcontrol.apiserver.k8s.io',
        'example.com',
      ],
    );
  });

  it('R8.9 a built-in resource reports its kind without group/version and nests its subresources', () => {
    const apps = aggregatedDiscovery(BUILTIN_RESOURCES, 'groups').items.find((g) => g.metadata.name === 'apps');
    const deployments = apps?.versions[0]?.resources?.find((r) => r.resource === 'deployments');
    assert.equal(
      JSON.stringify(deployments),
      '{"resource":"deployments","responseKind":{"group":"","version":"","kind":"Deployment"},"scope":"Namespaced",' +
        '"singularResource":"deployment","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],' +
        '"shortNames":["deploy"],"categories":["all"],"subresources":[' +
        '{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get","patch","update"]},' +
        '{"subresource":"status","responseKind":{"group":"","version":"","kind":"Deployment"},"verbs":["get","patch","update"]}]}',
    );
  });

  it('R8.9 cluster-scoped resources without short names, categories or subresources omit those fields', () => {
    const rbac = aggregatedDiscovery(BUILTIN_RESOURCES, 'groups').items.find((g) => g.metadata.name === 'rbac.authorization.k8s.io');
    const resources = rbac?.versions[0]?.resources ?? [];
    assert.deepEqual(
      resources.map((r) => r.resource),
      ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'],
    );
    assert.deepEqual(resources[0], {
      resource: 'clusterrolebindings',
      responseKind: { group: '', version: '', kind: 'ClusterRoleBinding' },
      scope: 'Cluster',
      singularResource: 'clusterrolebinding',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    });
  });

  it('R8.9 custom resources report their full group-version-kind, also for status', () => {
    const group = aggregatedDiscovery([gadget], 'groups').items[0];
    assert.equal(group?.metadata.name, 'example.com');
    const gadgets = group?.versions[0]?.resources?.[0];
    assert.deepEqual(gadgets?.responseKind, { group: 'example.com', version: 'v1', kind: 'Gadget' });
    assert.deepEqual(gadgets?.subresources, [
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: 'example.com', version: 'v1', kind: 'Gadget' }, verbs: ['get', 'patch', 'update'] },
    ]);
  });

  it('R8.9 versions are listed most preferred first', () => {
    const versions = ['v1alpha1', 'v1', 'v2beta1'].map((version) => ({ ...gadget, version }));
    const group = aggregatedDiscovery(versions, 'groups').items[0];
    assert.deepEqual(
      group?.versions.map((v) => v.version),
      ['v1', 'v2beta1', 'v1alpha1'],
    );
  });

  it('custom groups of equal priority are ordered by group name', () => {
    const list = aggregatedDiscovery(
      [
        { ...gadget, group: 'zeta.io', version: 'v1' },
        { ...gadget, group: 'alpha.io', version: 'v2' },
      ],
      'groups',
    );
    assert.deepEqual(
      list.items.map((g) => g.metadata.name),
      ['alpha.io', 'zeta.io'],
    );
  });

  it('serves v2beta1 with the same shape', () => {
    const list = aggregatedDiscovery(BUILTIN_RESOURCES, 'core', 'v2beta1');
    assert.equal(list.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    assert.ok((list.items[0]?.versions[0]?.resources?.length ?? 0) > 0);
  });

  it('R8.10 ETag is the quoted upper-case SHA-512 of the body and matches If-None-Match exactly', () => {
    const body = JSON.stringify(aggregatedDiscovery(BUILTIN_RESOURCES, 'groups'));
    const etag = discoveryETag(body);
    assert.match(etag, /^"[0-9A-F]{128}"$/);
    assert.equal(discoveryETag(body), etag);
    assert.notEqual(discoveryETag(`${body} `), etag);
    assert.equal(isNotModified(etag, etag), true);
    assert.equal(isNotModified(etag.slice(1, -1), etag), false);
    assert.equal(isNotModified(undefined, etag), false);
    assert.deepEqual(aggregatedDiscoveryCacheHeaders(etag), { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' });
  });
});
