import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceInfo } from '../api/resource-info.js';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './legacy.js';

function widget(version: string, group = 'example.com'): ResourceInfo {
  return {
    group,
    version,
    kind: 'Widget',
    listKind: 'WidgetList',
    plural: 'widgets',
    singular: 'widget',
    namespaced: true,
    verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    shortNames: ['wd'],
    categories: ['all'],
    subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
    nameFormat: 'dns1123-subdomain',
    definition: `com.example.${version}.Widget`,
    custom: true,
  };
}

describe('legacy discovery documents', () => {
  it('R8.1 /api lists v1 with the server address and no apiVersion', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(apiVersions('127.0.0.1:6443'))), {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
    });
  });

  it('R8.2 /api/v1 has no apiVersion and lists resources and subresources sorted by name', () => {
    const list = apiResourceList(BUILTIN_RESOURCES, '', 'v1');
    assert.ok(list);
    assert.equal('apiVersion' in list, false);
    assert.equal(list.groupVersion, 'v1');
    assert.deepEqual(
      list.resources.map((r) => r.name),
      [
        'bindings',
        'componentstatuses',
        'configmaps',
        'endpoints',
        'events',
        'limitranges',
        'namespaces',
        'namespaces/finalize',
        'namespaces/status',
        'nodes',
        'nodes/status',
        'persistentvolumeclaims',
        'persistentvolumeclaims/status',
        'persistentvolumes',
        'persistentvolumes/status',
        'pods',
        'pods/binding',
        'pods/eviction',
        'pods/log',
        'pods/status',
        'podtemplates',
        'replicationcontrollers',
        'replicationcontrollers/scale',
        'replicationcontrollers/status',
        'resourcequotas',
        'resourcequotas/status',
        'secrets',
        'serviceaccounts',
        'serviceaccounts/token',
        'services',
        'services/status',
      ],
    );
  });

  it('R8.6 a top-level entry carries singular name, verbs, short names, categories and storage hash', () => {
    const pods = apiResourceList(BUILTIN_RESOURCES, '', 'v1')?.resources.find((r) => r.name === 'pods');
    // Serialised form as kube-apiserver v1.32 reports it, including the field order.
    assert.equal(
      JSON.stringify(pods),
      '{"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod",' +
        '"verbs":["create","delete","deletecollection","get","list","patch","update","watch"],' +
        '"shortNames":["po"],"categories":["all"],"storageVersionHash":"xPOwRZ+Yhw8="}',
    );
  });

  it('R8.6 omits empty short names and categories', () => {
    const secrets = apiResourceList(BUILTIN_RESOURCES, '', 'v1')?.resources.find((r) => r.name === 'secrets');
    assert.deepEqual(secrets, {
      name: 'secrets',
      singularName: 'secret',
      namespaced: true,
      kind: 'Secret',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      storageVersionHash: 'S6u1pOWzb84=',
    });
  });

  it('R8.6 namespaces have no deletecollection', () => {
    const namespaces = apiResourceList(BUILTIN_RESOURCES, '', 'v1')?.resources.find((r) => r.name === 'namespaces');
    assert.deepEqual(namespaces?.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    assert.equal(namespaces?.namespaced, false);
  });

  it('R8.7 subresources are separate entries without singular name or storage hash', () => {
    const resources = apiResourceList(BUILTIN_RESOURCES, '', 'v1')?.resources ?? [];
    assert.equal(
      JSON.stringify(resources.find((r) => r.name === 'pods/status')),
      '{"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]}',
    );
    assert.deepEqual(
      resources.find((r) => r.name === 'namespaces/finalize'),
      { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] },
    );
  });

  it('R8.7 scale subresources name the autoscaling/v1 Scale kind', () => {
    const list = apiResourceList(BUILTIN_RESOURCES, 'apps', 'v1');
    assert.equal(
      JSON.stringify(list?.resources.find((r) => r.name === 'deployments/scale')),
      '{"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1",' +
        '"kind":"Scale","verbs":["get","patch","update"]}',
    );
    assert.equal(
      list?.resources.some((r) => r.name === 'daemonsets/scale'),
      false,
    );
  });

  it('R8.5 /apis/<g>/<v> carries apiVersion v1 and the group-version', () => {
    const list = apiResourceList(BUILTIN_RESOURCES, 'apps', 'v1');
    assert.equal(list?.kind, 'APIResourceList');
    assert.equal(list?.apiVersion, 'v1');
    assert.equal(list?.groupVersion, 'apps/v1');
    assert.deepEqual(
      list?.resources.map((r) => r.name),
      [
        'controllerrevisions',
        'daemonsets',
        'daemonsets/status',
        'deployments',
        'deployments/scale',
        'deployments/status',
        'replicasets',
        'replicasets/scale',
        'replicasets/status',
        'statefulsets',
        'statefulsets/scale',
        'statefulsets/status',
      ],
    );
  });

  it('events.k8s.io events report the storage hash of the core Event they are stored as', () => {
    const core = apiResourceList(BUILTIN_RESOURCES, '', 'v1')?.resources.find((r) => r.name === 'events');
    const events = apiResourceList(BUILTIN_RESOURCES, 'events.k8s.io', 'v1')?.resources.find((r) => r.name === 'events');
    assert.equal(core?.storageVersionHash, 'r2yiGXH7wu8=');
    assert.equal(events?.storageVersionHash, 'r2yiGXH7wu8=');
    assert.deepEqual(events?.shortNames, ['ev']);
  });

  it('returns undefined for a group-version that is not served', () => {
    assert.equal(apiResourceList(BUILTIN_RESOURCES, 'apps', 'v1beta1'), undefined);
    assert.equal(apiResourceList(BUILTIN_RESOURCES, 'example.com', 'v1'), undefined);
  });

  it('R8.3 /apis orders built-in groups by APIService priority, apiregistration first', () => {
    const list = apiGroupList(BUILTIN_RESOURCES);
    assert.equal(list.kind, 'APIGroupList');
    assert.equal(list.apiVersion, 'v1');
    assert.deepEqual(
      list.groups.map((g) => g.name),
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
      ],
    );
    assert.deepEqual(list.groups[1], {
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
  });

  it('R8.3 custom resource groups follow the built-ins, ordered by APIService name "<version>.<group>"', () => {
    const resources = [...BUILTIN_RESOURCES, widget('v1', 'zeta.io'), widget('v2', 'alpha.io'), widget('v1beta1', 'alpha.io')];
    const names = apiGroupList(resources).groups.map((g) => g.name);
    // "v1.zeta.io" sorts before "v1beta1.alpha.io" and "v2.alpha.io".
    assert.deepEqual(names.slice(-2), ['zeta.io', 'alpha.io']);
    assert.equal(names.indexOf('flowcontrol.apiserver.k8s.io'), names.length - 3);
  });

  it('R8.3 versions of a custom resource group are listed by kube-aware version priority', () => {
    const resources = [widget('v1beta1'), widget('v1'), widget('v2alpha1'), widget('v1beta2')];
    const group = apiGroup(resources, 'example.com');
    assert.deepEqual(
      group?.versions.map((v) => v.version),
      ['v1', 'v1beta2', 'v1beta1', 'v2alpha1'],
    );
    assert.deepEqual(group?.preferredVersion, { groupVersion: 'example.com/v1', version: 'v1' });
  });

  it('R8.4 /apis/<g> is a standalone APIGroup document', () => {
    assert.equal(
      JSON.stringify(apiGroup(BUILTIN_RESOURCES, 'batch')),
      '{"kind":"APIGroup","apiVersion":"v1","name":"batch","versions":[{"groupVersion":"batch/v1","version":"v1"}],' +
        '"preferredVersion":{"groupVersion":"batch/v1","version":"v1"}}',
    );
    assert.equal(apiGroup(BUILTIN_RESOURCES, 'example.com'), undefined);
    assert.equal(apiGroup(BUILTIN_RESOURCES, ''), undefined);
  });

  it('custom resources keep the verb order they are declared with', () => {
    const list = apiResourceList([widget('v1')], 'example.com', 'v1');
    assert.deepEqual(list?.resources[0]?.verbs, ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']);
    assert.deepEqual(
      list?.resources.map((r) => r.name),
      ['widgets', 'widgets/status'],
    );
  });
});
