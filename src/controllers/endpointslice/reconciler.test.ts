import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { type ReconcileInput, reconcileSlices } from './reconciler.js';
import { sliceToFill } from './slices.js';

const SERVICE: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'web',
    namespace: 'ns',
    uid: 'svc-uid',
    labels: { app: 'web', 'kubernetes.io/service-name': 'ignored' },
    creationTimestamp: '2026-01-01T00:00:00Z',
  },
  spec: {
    selector: { app: 'web' },
    clusterIP: '10.96.0.10',
    ipFamilies: ['IPv4'],
    ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
  },
};
const NODE: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } } };

function pod(i: number, extra: { ready?: boolean; deleting?: boolean; port?: number; node?: string; phase?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${i}`,
      namespace: 'ns',
      uid: `uid-${i}`,
      labels: { app: 'web' },
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:05Z' } : {}),
    },
    spec: {
      nodeName: extra.node ?? 'n1',
      containers: [{ name: 'c', ports: [{ name: 'http', containerPort: extra.port ?? 8080, protocol: 'TCP' }] }],
    },
    status: {
      phase: extra.phase ?? 'Running',
      podIP: `10.0.${Math.floor(i / 250)}.${i % 250}`,
      podIPs: [{ ip: `10.0.${Math.floor(i / 250)}.${i % 250}` }],
      conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }],
    },
  };
}

const input = (pods: KubeObject[], slices: KubeObject[] = [], extra: Partial<ReconcileInput> = {}): ReconcileInput => ({
  service: SERVICE,
  pods,
  slices,
  maxEndpointsPerSlice: 100,
  node: (name) => (name === 'n1' ? NODE : undefined),
  triggerTime: Date.parse('2026-01-01T00:00:10Z'),
  ...extra,
});

/** The endpoints of a planned slice (empty when there is none). */
const endpointsOf = (slice: KubeObject | undefined): any[] => (Array.isArray(slice?.endpoints) ? slice.endpoints : []);

/** A slice as the server would return the one the plan creates. */
const stored = (slice: KubeObject, name: string): KubeObject => ({
  ...slice,
  metadata: { ...slice.metadata, name, uid: `${name}-uid`, resourceVersion: '5' },
});

test('pods become one slice named from the Service, with its labels, controller reference, ports and endpoints (R12.130, R12.131)', () => {
  const plan = reconcileSlices(input([pod(1), pod(2, { ready: false }), pod(3, { deleting: true }), pod(4, { phase: 'Succeeded' })]));
  assert.deepEqual(plan.errors, []);
  assert.equal(plan.writes.length, 1);
  const [slice] = plan.writes[0]?.create ?? [];
  assert.deepEqual(plan.writes[0]?.update, []);
  assert.ok(slice);
  assert.deepEqual(slice.metadata, {
    generateName: 'web-',
    namespace: 'ns',
    ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true }],
    labels: {
      app: 'web',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    },
    annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': '2026-01-01T00:00:10Z' },
  });
  assert.equal(slice.addressType, 'IPv4');
  assert.deepEqual(slice.ports, [{ name: 'http', protocol: 'TCP', port: 8080 }]);
  assert.deepEqual(slice.endpoints, [
    {
      addresses: ['10.0.0.1'],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: 'Pod', namespace: 'ns', name: 'p1', uid: 'uid-1' },
      nodeName: 'n1',
      zone: 'z1',
    },
    {
      addresses: ['10.0.0.2'],
      conditions: { ready: false, serving: false, terminating: false },
      targetRef: { kind: 'Pod', namespace: 'ns', name: 'p2', uid: 'uid-2' },
      nodeName: 'n1',
      zone: 'z1',
    },
    {
      addresses: ['10.0.0.3'],
      conditions: { ready: false, serving: true, terminating: true },
      targetRef: { kind: 'Pod', namespace: 'ns', name: 'p3', uid: 'uid-3' },
      nodeName: 'n1',
      zone: 'z1',
    },
  ]);
});

test('publishNotReadyAddresses makes every endpoint ready; a pod on an unknown node is then kept, otherwise skipped with an error (R12.131)', () => {
  const publishing = { ...SERVICE, spec: { ...(SERVICE.spec as object), publishNotReadyAddresses: true } };
  const kept = reconcileSlices(input([pod(1, { ready: false, node: 'gone' })], [], { service: publishing }));
  const endpoint = endpointsOf(kept.writes[0]?.create[0])[0];
  assert.deepEqual([endpoint.conditions, endpoint.zone, kept.errors], [{ ready: true, serving: false, terminating: false }, undefined, []]);
  const skipped = reconcileSlices(input([pod(1, { node: 'gone' })]));
  assert.deepEqual(skipped.errors, ['skipping Pod p1 for Service ns/web: Node gone Not Found']);
  // Nothing left to publish: the placeholder.
  assert.deepEqual(
    skipped.writes[0]?.create.map((s) => [s.endpoints, s.ports]),
    [[[], []]],
  );
});

test('at most maxEndpointsPerSlice endpoints per slice; pods with other resolved ports get their own slices (R12.132)', () => {
  const pods = Array.from({ length: 250 }, (_, i) => pod(i));
  pods.push(pod(300, { port: 9090 }));
  const plan = reconcileSlices(input(pods));
  assert.deepEqual(
    plan.writes[0]?.create.map((s) => [(s.endpoints as unknown[]).length, (s.ports as any[])[0].port]),
    [
      [100, 8080],
      [100, 8080],
      [50, 8080],
      [1, 9090],
    ],
  );
});

test('an existing slice is updated in place: gone pods removed, new ones added, nothing created (R12.132)', () => {
  const first = reconcileSlices(input([pod(1), pod(2), pod(3)]));
  const slice = stored(first.writes[0]?.create[0] as KubeObject, 'web-abcde');
  const unchanged = reconcileSlices(input([pod(1), pod(2), pod(3)], [slice]));
  assert.deepEqual(unchanged.writes[0], { create: [], update: [], delete: [] });
  const plan = reconcileSlices(input([pod(1), pod(3), pod(4)], [slice]));
  assert.deepEqual(plan.writes[0]?.create, []);
  assert.deepEqual(plan.writes[0]?.delete, []);
  const [updated] = plan.writes[0]?.update ?? [];
  assert.equal(updated?.metadata.name, 'web-abcde');
  assert.equal(updated?.metadata.resourceVersion, '5');
  assert.deepEqual(
    endpointsOf(updated).map((e) => e.targetRef.name),
    ['p1', 'p3', 'p4'],
  );
  // A readiness change rewrites the endpoint where it is.
  const notReady = reconcileSlices(input([pod(1), pod(2, { ready: false }), pod(3)], [slice]));
  assert.deepEqual(
    endpointsOf(notReady.writes[0]?.update[0]).map((e) => e.conditions.ready),
    [true, false, true],
  );
});

test('a slice that would be deleted is reused by name for a slice that would be created (finalize, R12.132)', () => {
  const first = reconcileSlices(input([pod(1)]));
  const slice = stored(first.writes[0]?.create[0] as KubeObject, 'web-abcde');
  // The pod's named port now resolves to another number: another port set, so delete + create become one update.
  const plan = reconcileSlices(input([pod(1, { port: 9999 })], [slice]));
  assert.deepEqual(plan.writes[0]?.create, []);
  assert.deepEqual(plan.writes[0]?.delete, []);
  const [updated] = plan.writes[0]?.update ?? [];
  assert.equal(updated?.metadata.name, 'web-abcde');
  assert.deepEqual(updated?.ports, [{ name: 'http', protocol: 'TCP', port: 9999 }]);
});

test('the placeholder slice is created once, kept while there are no endpoints, and slices not owned by the Service go (R12.132, R12.133)', () => {
  const first = reconcileSlices(input([]));
  const placeholder = stored(first.writes[0]?.create[0] as KubeObject, 'web-empty');
  assert.deepEqual([placeholder.endpoints, placeholder.ports], [[], []]);
  assert.deepEqual(reconcileSlices(input([], [placeholder])).writes[0], { create: [], update: [], delete: [] });
  const foreign = {
    ...placeholder,
    metadata: {
      ...placeholder.metadata,
      name: 'web-old',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'old-uid' }],
    },
  };
  const withPods = reconcileSlices(input([pod(1)], [foreign]));
  assert.deepEqual(
    withPods.writes[0]?.delete.map((s) => s.metadata.name),
    ['web-old'],
  );
  assert.equal(withPods.writes[0]?.create.length, 1);
});

test('slices of an address type the Service no longer has are deleted; ipFamilies decide the types (R12.130)', () => {
  const dual = { ...SERVICE, spec: { ...(SERVICE.spec as object), ipFamilies: ['IPv6', 'IPv4'] } };
  const ipv6Pod = pod(1);
  (ipv6Pod.status as any).podIPs = [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }];
  const plan = reconcileSlices(input([ipv6Pod], [], { service: dual }));
  assert.deepEqual(
    plan.writes.map((w) => w.create.map((s) => [s.addressType, (s.endpoints as any[])[0].addresses])),
    [[['IPv4', ['10.0.0.1']]], [['IPv6', ['fd00::1']]]],
  );
  const v6 = stored(plan.writes[1]?.create[0] as KubeObject, 'web-six');
  assert.deepEqual(
    reconcileSlices(input([ipv6Pod], [v6])).unsupported.map((s) => s.metadata.name),
    ['web-six'],
  );
});

test('getSliceToFill picks the slice closest to full that still has room', () => {
  const slice = (name: string, n: number): KubeObject => ({
    apiVersion: 'v1',
    kind: 'EndpointSlice',
    metadata: { name },
    endpoints: Array.from({ length: n }, () => ({})),
  });
  assert.equal(sliceToFill([slice('a', 10), slice('b', 90), slice('c', 97)], 5, 100)?.metadata.name, 'b');
  assert.equal(sliceToFill([slice('a', 99)], 5, 100), undefined);
});
