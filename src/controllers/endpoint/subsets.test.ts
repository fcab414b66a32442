import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { capacityAnnotationCorrect, computeSubsets, type EndpointAddress, type EndpointSubset, truncateSubsets } from './subsets.js';

const service = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'ns' },
  spec: { selector: { app: 'web' }, ...spec },
});

function pod(
  name: string,
  ip: string,
  extra: { ready?: boolean; deleting?: boolean; ports?: unknown[]; hostname?: string } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: {
      nodeName: 'n1',
      subdomain: 'web',
      ...(extra.hostname ? { hostname: extra.hostname } : {}),
      containers: [{ name: 'c', ports: extra.ports ?? [] }],
    },
    status: {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }],
    },
  };
}

const address = (name: string, ip: string, hostname?: string): EndpointAddress => ({
  ip,
  ...(hostname === undefined ? {} : { hostname }),
  nodeName: 'n1',
  targetRef: { kind: 'Pod', namespace: 'ns', name, uid: `uid-${name}` },
});

test('ready pods are addresses, the others notReadyAddresses, terminating ones left out; sorted by IP (R12.126, R12.127)', () => {
  const subsets = computeSubsets(service({ clusterIP: '10.96.0.1', ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] }), [
    pod('b', '10.0.0.9'),
    pod('a', '10.0.0.10', { hostname: 'host-a' }),
    pod('c', '10.0.0.3', { ready: false }),
    pod('d', '10.0.0.4', { deleting: true }),
  ]);
  assert.deepEqual(subsets, [
    {
      addresses: [address('a', '10.0.0.10', 'host-a'), address('b', '10.0.0.9')],
      notReadyAddresses: [address('c', '10.0.0.3')],
      ports: [{ port: 8080, protocol: 'TCP' }],
    },
  ]);
});

test('publishNotReadyAddresses lists every pod, terminating ones included, as ready (R12.126)', () => {
  const subsets = computeSubsets(service({ publishNotReadyAddresses: true, ports: [{ port: 80, protocol: 'TCP' }] }), [
    pod('a', '10.0.0.1', { ready: false }),
    pod('b', '10.0.0.2', { deleting: true }),
  ]);
  assert.deepEqual(subsets, [{ addresses: [address('a', '10.0.0.1'), address('b', '10.0.0.2')], ports: [{ port: 80, protocol: 'TCP' }] }]);
});

test('addresses with the same ports share a subset; a pod lacking a named port is left out of that port only (R12.128)', () => {
  const ports = [
    { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
    { name: 'metrics', port: 9000, targetPort: 9000, protocol: 'TCP' },
  ];
  const subsets = computeSubsets(service({ clusterIP: '10.96.0.1', ports }), [
    pod('a', '10.0.0.1', { ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }),
    pod('b', '10.0.0.2', { ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }),
    pod('c', '10.0.0.3'),
  ]);
  // Per port, the addresses offering it: {a, b} offer http, {a, b, c} metrics, so two subsets.
  assert.deepEqual(subsets, [
    { addresses: [address('a', '10.0.0.1'), address('b', '10.0.0.2')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
    {
      addresses: [address('a', '10.0.0.1'), address('b', '10.0.0.2'), address('c', '10.0.0.3')],
      ports: [{ name: 'metrics', port: 9000, protocol: 'TCP' }],
    },
  ]);
  // Ports offered by the same addresses share their subset.
  const both = computeSubsets(service({ clusterIP: '10.96.0.1', ports }), [
    pod('a', '10.0.0.1', { ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }),
  ]);
  assert.deepEqual(both, [
    {
      addresses: [address('a', '10.0.0.1')],
      ports: [
        { name: 'http', port: 8080, protocol: 'TCP' },
        { name: 'metrics', port: 9000, protocol: 'TCP' },
      ],
    },
  ]);
});

test('a headless Service without ports gets one subset without ports; a Service with a ClusterIP and no ports gets none (R12.128)', () => {
  assert.deepEqual(computeSubsets(service({ clusterIP: 'None' }), [pod('a', '10.0.0.1')]), [{ addresses: [address('a', '10.0.0.1')] }]);
  assert.deepEqual(computeSubsets(service({ clusterIP: '10.96.0.1' }), [pod('a', '10.0.0.1')]), []);
});

const many = (n: number, prefix: string): EndpointAddress[] =>
  Array.from({ length: n }, (_, i) => address(`${prefix}${i}`, `10.${prefix === 'r' ? 1 : 2}.${Math.floor(i / 250)}.${i % 250}`));

test('above 1000 addresses, ready ones are kept first and each subset keeps its share (truncateEndpoints, R12.129)', () => {
  assert.equal(truncateSubsets([{ addresses: many(1000, 'r') }]), undefined);
  const readyOver = truncateSubsets([
    { addresses: many(900, 'r'), notReadyAddresses: many(10, 'n') },
    { addresses: many(300, 'r') },
  ]) as EndpointSubset[];
  assert.deepEqual(
    readyOver.map((s) => [s.addresses?.length, s.notReadyAddresses?.length]),
    [
      [750, undefined],
      [250, undefined],
    ],
  );
  const notReadyOver = truncateSubsets([{ addresses: many(900, 'r'), notReadyAddresses: many(300, 'n') }]) as EndpointSubset[];
  assert.deepEqual([notReadyOver[0]?.addresses?.length, notReadyOver[0]?.notReadyAddresses?.length], [900, 100]);
  assert.equal(capacityAnnotationCorrect({}, readyOver), true);
  assert.equal(capacityAnnotationCorrect({ 'endpoints.kubernetes.io/over-capacity': 'truncated' }, readyOver), false);
  assert.equal(capacityAnnotationCorrect({}, [{ addresses: many(1001, 'r') }]), false);
});
