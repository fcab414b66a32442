import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { stuckNamespaces, unavailableApiServices } from './namespace-view.js';
import { ObjectStore } from './object-store.js';
import { parseRoute } from './route.js';

function store(): ObjectStore {
  const s = new ObjectStore();
  s.setResources([
    { key: 'namespaces', group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false },
    { key: 'configmaps', group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
    {
      key: 'apiservices.apiregistration.k8s.io',
      group: 'apiregistration.k8s.io',
      version: 'v1',
      resource: 'apiservices',
      kind: 'APIService',
      namespaced: false,
    },
  ]);
  return s;
}

function add(s: ObjectStore, resource: string, object: Partial<KubeObject> & { metadata: KubeObject['metadata'] }): void {
  s.apply({ type: 'ADDED', resource, object: { apiVersion: 'v1', kind: '', ...object } as KubeObject });
}

describe('the namespace view', () => {
  it('lists terminating namespaces with all five conditions (R5.20) and the objects holding them', () => {
    const s = store();
    add(s, 'namespaces', {
      metadata: { name: 'stuck', uid: 'n', deletionTimestamp: '2026-01-01T00:00:00Z' },
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Terminating',
        conditions: [{ type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: 'm' }],
      },
    });
    add(s, 'namespaces', { metadata: { name: 'fine', uid: 'f' } });
    add(s, 'configmaps', { metadata: { name: 'kept', namespace: 'stuck', uid: 'c', finalizers: ['x/y'] } });
    const [ns, ...rest] = stuckNamespaces(s);
    assert.equal(rest.length, 0);
    assert.equal(ns?.name, 'stuck');
    assert.deepEqual(ns?.specFinalizers, ['kubernetes']);
    assert.deepEqual(
      ns?.conditions.map((c) => `${c.type}=${c.status}`),
      [
        'NamespaceDeletionDiscoveryFailure=',
        'NamespaceDeletionGroupVersionParsingFailure=',
        'NamespaceDeletionContentFailure=',
        'NamespaceContentRemaining=',
        'NamespaceFinalizersRemaining=True',
      ],
    );
    assert.deepEqual(
      ns?.held.map((o) => o.object.metadata.name),
      ['kept'],
    );
  });

  it('names unavailable APIServices with their backing endpoint (D8)', () => {
    const s = store();
    add(s, 'apiservices.apiregistration.k8s.io', {
      metadata: { name: 'v1.down.example.com', uid: 'a' },
      spec: { service: { namespace: 'sys', name: 'api', port: 8443 } },
      status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'no addresses' }] },
    });
    add(s, 'apiservices.apiregistration.k8s.io', {
      metadata: { name: 'v1', uid: 'b' },
      status: { conditions: [{ type: 'Available', status: 'True' }] },
    });
    assert.deepEqual(unavailableApiServices(s), [
      { name: 'v1.down.example.com', reason: 'MissingEndpoints', message: 'no addresses', endpoint: 'sys/api:8443' },
    ]);
  });
});

describe('routes', () => {
  it('deep-links objects, cluster-scoped objects and the namespace view', () => {
    assert.deepEqual(parseRoute('#/namespaces/default/replicasets.apps/web'), {
      view: 'object',
      namespace: 'default',
      resource: 'replicasets.apps',
      name: 'web',
    });
    assert.deepEqual(parseRoute('#/cluster/nodes/n%3A1'), { view: 'object', resource: 'nodes', name: 'n:1' });
    assert.deepEqual(parseRoute('#/stuck-namespaces'), { view: 'namespaces' });
    assert.deepEqual(parseRoute(''), { view: 'home' });
  });
});
