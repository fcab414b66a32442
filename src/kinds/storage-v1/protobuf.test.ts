import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../protobuf/decode.js';
import { BUILTIN_DEFINITIONS } from '../definitions.js';

const roundTrip = (obj: Record<string, unknown>): Record<string, unknown> =>
  decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj, BUILTIN_DEFINITIONS), BUILTIN_DEFINITIONS);

test('a StorageClass survives protobuf, false and empty pointer fields included', () => {
  const sc = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'fast' },
    provisioner: 'example.com/ssd',
    parameters: { type: 'pd-ssd' },
    reclaimPolicy: 'Retain',
    mountOptions: ['ro'],
    allowVolumeExpansion: false,
    volumeBindingMode: 'WaitForFirstConsumer',
    allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] }],
  };
  assert.deepEqual(roundTrip(sc), sc);
});

test('CSIDriver, CSINode, VolumeAttachment and CSIStorageCapacity survive protobuf', () => {
  const objects = [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'ebs.csi.example.com' },
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
        storageCapacity: false,
        fsGroupPolicy: 'File',
        tokenRequests: [{ audience: 'vault', expirationSeconds: 3600 }],
        requiresRepublish: true,
        seLinuxMount: false,
      },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'node-1' },
      spec: { drivers: [{ name: 'ebs.csi.example.com', nodeID: 'i-1', topologyKeys: ['zone'], allocatable: { count: 0 } }] },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va1' },
      spec: { attacher: 'ebs.csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' },
      status: { attached: false, attachmentMetadata: { a: 'b' }, attachError: { time: '2026-01-01T00:00:00Z', message: 'boom' } },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'cap', namespace: 'default' },
      nodeTopology: { matchLabels: { zone: 'a' } },
      storageClassName: 'fast',
      capacity: '10Gi',
      maximumVolumeSize: '1Gi',
    },
  ];
  for (const obj of objects) assert.deepEqual(roundTrip(obj), obj);
});
