import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../api/types.js';
import { ObjectStore } from './object-store.js';
import { accessibleName, buildGraph, GROUP_PAGE, GROUP_THRESHOLD, groupId, MAX_LAYOUT_NODES } from './ownership-graph.js';
import type { StreamResource } from './stream-protocol.js';

const RESOURCES: StreamResource[] = [
  { key: 'configmaps', group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { key: 'pods', group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  { key: 'nodes', group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  { key: 'services', group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  { key: 'events', group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true },
];
const NOW = Date.parse('2026-01-01T00:01:00Z');

function owner(name: string, uid: string, extra: Partial<OwnerReference> = {}): OwnerReference {
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid, ...extra };
}

function add(store: ObjectStore, resource: string, metadata: KubeObject['metadata'], rest: Record<string, unknown> = {}): void {
  store.apply({
    type: 'ADDED',
    resource,
    object: { apiVersion: 'v1', kind: '', metadata: { namespace: 'ns', ...metadata }, ...rest } as KubeObject,
  });
}

function storeWith(): ObjectStore {
  const store = new ObjectStore();
  store.setResources(RESOURCES);
  return store;
}

function labels(store: ObjectStore, name: string, relations = new Set<never>()) {
  const target = store.find('configmaps', 'ns', name);
  assert.ok(target);
  return buildGraph(store, target, relations, NOW).nodes.map(accessibleName);
}

describe('the ownership graph', () => {
  it('shows a foreground deletion: the owner terminating, the blocking dependent, the finalizer holding the leaf (R4.31)', () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'root', uid: 'r', deletionTimestamp: '2026-01-01T00:00:30Z', finalizers: ['foregroundDeletion'] });
    add(store, 'configmaps', { name: 'mid', uid: 'm', ownerReferences: [owner('root', 'r', { blockOwnerDeletion: true })] });
    add(store, 'configmaps', { name: 'leaf', uid: 'l', finalizers: ['example.com/hold'], ownerReferences: [owner('mid', 'm')] });
    assert.deepEqual(labels(store, 'root'), [
      'ConfigMap root in ns: terminating (foreground) for 30s; held by finalizers: foregroundDeletion',
      'ConfigMap mid in ns: live; blocking owner ConfigMap/root',
      'ConfigMap leaf in ns: live; held by finalizers: example.com/hold',
    ]);
  });

  it('shows dependents being orphaned by an owner deleted with propagation Orphan (R4.34)', () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'owner', uid: 'o', deletionTimestamp: '2026-01-01T00:00:58Z', finalizers: ['orphan'] });
    add(store, 'configmaps', { name: 'kept', uid: 'k', ownerReferences: [owner('owner', 'o')] });
    assert.deepEqual(labels(store, 'owner'), [
      'ConfigMap owner in ns: terminating (orphan) for 2s; held by finalizers: orphan',
      'ConfigMap kept in ns: live; orphaned by ConfigMap/owner',
    ]);
  });

  it('draws owners upwards, with dangling, virtual and invalid references (R4.26)', () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'gone-owner', uid: 'x', namespace: 'other' });
    add(store, 'configmaps', {
      name: 'child',
      uid: 'c',
      ownerReferences: [
        owner('missing', 'no-such-uid'),
        { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'w' },
        owner('gone-owner', 'x'),
      ],
    });
    assert.deepEqual(labels(store, 'child'), [
      'ConfigMap child in ns: live; all owners absent: the garbage collector deletes it; dangling reference to ConfigMap/missing; virtual owner Widget/w; invalid reference to ConfigMap/gone-owner',
      'ConfigMap missing: dangling reference; ConfigMap/missing: dangling reference, no object with uid no-such-uid',
      'Widget w: virtual: owner never seen; Widget/w: owner never seen (kind Widget of example.com/v1 is not served)',
      'ConfigMap gone-owner: invalid reference; ConfigMap/gone-owner: the owner is in namespace other, not ns',
    ]);
  });

  it(`collapses more than ${GROUP_THRESHOLD} dependents of one kind into a group`, () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'owner', uid: 'o' });
    for (let i = 0; i < 5000; i++)
      add(store, 'configmaps', {
        name: `d-${i}`,
        uid: `d${i}`,
        ownerReferences: [owner('owner', 'o')],
        ...(i < 3 ? { finalizers: ['f'] } : {}),
      });
    const started = performance.now();
    const graph = buildGraph(
      store,
      store.find('configmaps', 'ns', 'owner') as NonNullable<ReturnType<ObjectStore['find']>>,
      new Set(),
      NOW,
    );
    assert.ok(performance.now() - started < 200);
    assert.deepEqual(graph.nodes.map(accessibleName), [
      'ConfigMap owner in ns: live',
      'group of 5000 ConfigMap dependents: 0 terminating; 3 held by finalizers',
    ]);
  });

  it('expands a group into its members a page at a time, by name, and follows the store', () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'owner', uid: 'o' });
    for (let i = 0; i < 450; i++)
      add(store, 'configmaps', { name: `d-${String(i).padStart(3, '0')}`, uid: `d${i}`, ownerReferences: [owner('owner', 'o')] });
    add(store, 'configmaps', { name: 'grandchild', uid: 'g', ownerReferences: [owner('d-000', 'd0')] });
    const target = store.find('configmaps', 'ns', 'owner');
    assert.ok(target);
    const group = groupId('o', 'ConfigMap');
    const build = (shown: number) => buildGraph(store, target, new Set(), NOW, new Map([[group, shown]]));

    const first = build(GROUP_PAGE);
    const members = first.nodes.filter((n) => n.memberOf === group);
    assert.equal(members.length, GROUP_PAGE);
    assert.deepEqual([members[0]?.name, members.at(-1)?.name], ['d-000', 'd-199']);
    assert.equal(
      accessibleName(first.nodes[1] as (typeof first.nodes)[number]),
      'group of 450 ConfigMap dependents: 0 terminating; 0 held by finalizers; showing 200 of 450',
    );
    // A member's own dependents are walked as any dependent's are.
    assert.ok(first.edges.some((e) => e.source === 'd0' && e.target === 'g'));
    assert.equal(first.truncated, false);

    assert.equal(build(3 * GROUP_PAGE).nodes.filter((n) => n.memberOf === group).length, 450);

    // A watch event: a member terminates and another leaves; the counts and the members follow.
    add(store, 'configmaps', {
      name: 'd-001',
      uid: 'd1',
      deletionTimestamp: '2026-01-01T00:00:50Z',
      finalizers: ['f'],
      ownerReferences: [owner('owner', 'o')],
    });
    store.apply({
      type: 'DELETED',
      resource: 'configmaps',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd-002', namespace: 'ns', uid: 'd2' } },
    });
    const live = build(GROUP_PAGE);
    assert.equal(live.nodes.find((n) => n.id === group)?.group?.count, 449);
    assert.equal(live.nodes.find((n) => n.id === group)?.group?.terminating, 1);
    assert.deepEqual(
      live.nodes
        .filter((n) => n.memberOf === group)
        .slice(0, 3)
        .map((n) => n.name),
      ['d-000', 'd-001', 'd-003'],
    );
  });

  it(`bounds the laid-out nodes at ${MAX_LAYOUT_NODES}, whatever the members of expanded groups`, () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'owner', uid: 'o' });
    // Twelve per kind per owner stay single nodes: a wide tree of them is what the layout bound is for.
    for (let i = 0; i < GROUP_THRESHOLD; i++) {
      add(store, 'configmaps', { name: `a-${i}`, uid: `a${i}`, ownerReferences: [owner('owner', 'o')] });
      for (let j = 0; j < GROUP_THRESHOLD; j++) {
        add(store, 'configmaps', { name: `b-${i}-${j}`, uid: `b${i}-${j}`, ownerReferences: [owner(`a-${i}`, `a${i}`)] });
        for (let k = 0; k < 4; k++)
          add(store, 'configmaps', {
            name: `c-${i}-${j}-${k}`,
            uid: `c${i}-${j}-${k}`,
            ownerReferences: [owner(`b-${i}-${j}`, `b${i}-${j}`)],
          });
      }
    }
    const target = store.find('configmaps', 'ns', 'owner');
    assert.ok(target);
    const graph = buildGraph(store, target, new Set(), NOW);
    assert.equal(graph.truncated, true);
    assert.ok(graph.nodes.length <= MAX_LAYOUT_NODES + GROUP_THRESHOLD, String(graph.nodes.length));
  });

  it('adds the relations that are switched on: Service → Pods, Pod → Node, Pod → ConfigMap, events', () => {
    const store = storeWith();
    add(store, 'configmaps', { name: 'settings', uid: 's' });
    add(
      store,
      'pods',
      { name: 'web', uid: 'p', labels: { app: 'web' } },
      { spec: { nodeName: 'n1', volumes: [{ name: 'v', configMap: { name: 'settings' } }] } },
    );
    add(store, 'services', { name: 'web', uid: 'svc' }, { spec: { selector: { app: 'web' } } });
    add(store, 'events', { name: 'e1', uid: 'e' }, { involvedObject: { uid: 's' }, reason: 'Hello' });
    const service = store.find('services', 'ns', 'web');
    assert.ok(service);
    const graph = buildGraph(store, service, new Set(['selector', 'node', 'config', 'events'] as const), NOW);
    assert.deepEqual(
      graph.edges.map((e) => `${e.type}:${e.source}->${e.target}`),
      ['selector:svc->p', 'node:p->named:Node::n1', 'config:p->s', 'events:e->s'],
    );
  });
});
