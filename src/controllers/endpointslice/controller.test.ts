import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { createTestClient, recordingWrites } from '../../auth/rbac/bootstrap/testing/registry-client.js';
import type { ApiClient } from '../../client/interface.js';
import { EndpointsController } from '../endpoint/controller.js';
import { EndpointSliceController } from './controller.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const SERVICES = { group: '', version: 'v1', resource: 'services' };
const ENDPOINTS = { group: '', version: 'v1', resource: 'endpoints' };
const SLICES = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function runningPod(client: ApiClient, name: string, ip: string, ready = true): Promise<KubeObject> {
  const pod = await client.create(PODS, 'ns', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'web' } },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
  });
  const status = {
    phase: 'Running',
    podIP: ip,
    podIPs: [{ ip }],
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  };
  return client.update(PODS, 'ns', { ...pod, status }, 'status');
}

async function setup(): Promise<{ base: ApiClient; writes: string[]; slices: EndpointSliceController; endpoints: EndpointsController }> {
  const base = createTestClient();
  await base.create(NAMESPACES, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  await base.create(NODES, undefined, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } },
  });
  // An Endpoints object left behind by a Service deleted while no controller ran.
  await base.create(ENDPOINTS, 'ns', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'leftover' } });
  const { client, writes } = recordingWrites(base);
  const slices = new EndpointSliceController({ client, maxEndpointsPerSlice: 2 });
  const endpoints = new EndpointsController({ client });
  await Promise.all([slices.start(), endpoints.start()]);
  return { base, writes, slices, endpoints };
}

test('both controllers follow a Service and its pods, write only what changed, and clean up (R12.125–R12.133)', async () => {
  const { base, writes, slices, endpoints } = await setup();
  try {
    await until(async () => (await base.list(ENDPOINTS, 'ns')).items.length === 0, 'the leftover Endpoints deleted');
    await runningPod(base, 'a', '10.0.0.1');
    await runningPod(base, 'b', '10.0.0.2');
    await runningPod(base, 'c', '10.0.0.3', false);
    await base.create(SERVICES, 'ns', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', labels: { tier: 'front' } },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    const written = await until(async () => {
      const list = (await base.list(SLICES, 'ns')).items;
      const total = list.reduce((n, slice) => n + (slice.endpoints as unknown[]).length, 0);
      return list.length === 2 && total === 3 && list;
    }, 'two slices of at most 2 endpoints');
    assert.deepEqual(written.map((s) => (s.endpoints as unknown[]).length).sort(), [1, 2]);
    const ep = await until(async () => {
      const found = (await base.list(ENDPOINTS, 'ns')).items[0];
      const [subset] = (found?.subsets as any[] | undefined) ?? [];
      return subset?.addresses?.length === 2 && subset?.notReadyAddresses?.length === 1 && found;
    }, 'the Endpoints object with every pod');
    assert.deepEqual(ep.metadata.labels, { tier: 'front' });
    assert.deepEqual(
      (ep.subsets as any[])[0].notReadyAddresses.map((a: any) => a.ip),
      ['10.0.0.3'],
    );
    // Its DELETE echoes back as a deletion, which syncs the key again (a second DELETE, answered 404), as upstream.
    assert.ok(writes.includes('delete endpoints leftover'));

    // A pod change that cannot alter an endpoint writes nothing; a new pod fills the slice with room (getSliceToFill).
    writes.length = 0;
    await base.patch(PODS, 'ns', 'a', 'merge', { metadata: { annotations: { note: 'x' } } });
    const roomy = written.find((s) => (s.endpoints as unknown[]).length === 1) as KubeObject;
    await runningPod(base, 'd', '10.0.0.4');
    const filled = await until(async () => {
      const slice = await base.get(SLICES, 'ns', roomy.metadata.name ?? '');
      return (slice.endpoints as unknown[]).length === 2 && slice;
    }, 'd in the slice with room');
    assert.equal(filled.metadata.generation, (roomy.metadata.generation ?? 0) + 1);
    await until(async () => JSON.stringify((await base.get(ENDPOINTS, 'ns', 'web')).subsets).includes('10.0.0.4'), 'd in Endpoints');
    assert.deepEqual(writes.filter((w) => !w.startsWith('create events')).sort(), [
      'update endpoints web',
      `update endpointslices ${roomy.metadata.name}`,
    ]);

    // Another client deletes a slice: the controller notices and the pods are back in slices.
    writes.length = 0;
    await base.delete(SLICES, 'ns', written[0]?.metadata.name ?? '');
    await until(async () => {
      const list = (await base.list(SLICES, 'ns')).items;
      return list.length === 2 && list.reduce((n, s) => n + (s.endpoints as unknown[]).length, 0) === 4;
    }, 'slices repaired');

    await base.delete(SERVICES, 'ns', 'web');
    await until(async () => (await base.list(ENDPOINTS, 'ns')).items.length === 0, 'Endpoints deleted with the Service');
  } finally {
    await Promise.all([slices.stop(), endpoints.stop()]);
  }
});
