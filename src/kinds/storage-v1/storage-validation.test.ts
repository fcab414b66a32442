import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateCSIDriver } from './csi-driver-validation.js';
import { validateCSINode, validateCSINodeUpdate } from './csi-node-validation.js';
import { validateStorageClass } from './storage-class-validation.js';

const rendered = (errs: ReturnType<typeof validateCSINode>): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const storageClass = (allowedTopologies: unknown): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'fast' },
  provisioner: 'example.com/ssd',
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
  allowedTopologies,
});

describe('StorageClass allowedTopologies (validateAllowedTopologies, ValidateTopologySelectorTerm)', () => {
  it('accepts distinct terms', () => {
    const terms = [
      { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] },
      { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['c'] }] },
    ];
    assert.deepEqual(validateStorageClass(storageClass(terms)), []);
  });

  const invalid: [string, unknown, string[]][] = [
    [
      'a requirement without values, a repeated value and a bad key',
      [
        {
          matchLabelExpressions: [
            { key: 'zone', values: [] },
            { key: 'bad key', values: ['x', 'x'] },
          ],
        },
      ],
      [
        'allowedTopologies[0].matchLabelExpressions[0].values: Required value',
        'allowedTopologies[0].matchLabelExpressions[1].values[1]: Duplicate value: "x"',
        `allowedTopologies[0].matchLabelExpressions[1].key: Invalid value: "bad key": ${QUALIFIED}`,
      ],
    ],
    [
      'a repeated key in a term',
      [
        {
          matchLabelExpressions: [
            { key: 'zone', values: ['a'] },
            { key: 'zone', values: ['b'] },
          ],
        },
      ],
      ['allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"'],
    ],
    [
      'the same term twice, values in another order',
      [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'b'] }] }, { matchLabelExpressions: [{ key: 'zone', values: ['b', 'a'] }] }],
      ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""'],
    ],
    [
      'an empty term (equal to the empty placeholders Kubernetes compares with)',
      [{}],
      ['allowedTopologies[0].matchLabelExpressions: Duplicate value: ""'],
    ],
  ];
  for (const [name, terms, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validateStorageClass(storageClass(terms))), expected));
  }
});

describe('CSIDriver tokenRequests (validateTokenRequests)', () => {
  const driver = (tokenRequests: unknown): KubeObject => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: 'csi.example.com' },
    spec: { attachRequired: true, podInfoOnMount: false, storageCapacity: false, volumeLifecycleModes: ['Persistent'], tokenRequests },
  });

  it('accepts distinct audiences with lifetimes in range', () => {
    assert.deepEqual(
      validateCSIDriver(
        driver([{ audience: 'vault' }, { audience: 'gcp', expirationSeconds: 600 }, { audience: '', expirationSeconds: 2 ** 32 }]),
      ),
      [],
    );
  });

  it('refuses a repeated audience and lifetimes out of range', () => {
    const requests = [
      { audience: 'vault', expirationSeconds: 599 },
      { audience: 'vault', expirationSeconds: 1 },
      { audience: 'x', expirationSeconds: 2 ** 32 + 1 },
    ];
    assert.deepEqual(rendered(validateCSIDriver(driver(requests))), [
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      'spec.tokenRequests[1].audience: Duplicate value: "vault"',
      'spec.tokenRequests[2].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ]);
  });
});

describe('CSINode drivers (validateCSINodeDriver, ValidateCSINodeUpdate)', () => {
  const csiNode = (drivers: unknown[]): KubeObject => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name: 'node-1' },
    spec: { drivers },
  });
  const good = { name: 'csi.example.com', nodeID: 'node-1', topologyKeys: ['topology.example.com/zone'], allocatable: { count: 10 } };

  it('accepts registered drivers', () => {
    assert.deepEqual(validateCSINode(csiNode([good, { name: 'other.example.com', nodeID: 'n' }])), []);
  });

  it('refuses an empty node ID, a negative count, a repeated name and repeated or empty topology keys', () => {
    const bad = { name: 'csi.example.com', nodeID: '', allocatable: { count: -1 }, topologyKeys: ['zone', 'zone'] };
    assert.deepEqual(rendered(validateCSINode(csiNode([good, bad]))), [
      'spec.drivers[1].nodeID: Required value',
      'spec.drivers[1].allocatable.count: Invalid value: -1: must be greater than or equal to 0',
      'spec.drivers[1].name: Duplicate value: "csi.example.com"',
      'spec.drivers[1]: Duplicate value: "zone"',
    ]);
  });

  it('refuses a node ID longer than 256 characters', () => {
    const id = 'x'.repeat(257);
    assert.deepEqual(rendered(validateCSINode(csiNode([{ name: 'csi.example.com', nodeID: id }]))), [
      `spec.drivers[0].nodeID: Invalid value: "${id}": must be 256 characters or less`,
    ]);
  });

  it('refuses a change to a registered driver but lets drivers be added', () => {
    assert.deepEqual(validateCSINodeUpdate(csiNode([good, { name: 'new.example.com', nodeID: 'n' }]), csiNode([good])), []);
    assert.deepEqual(rendered(validateCSINodeUpdate(csiNode([{ ...good, nodeID: 'node-2' }]), csiNode([good]))), [
      'CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"csi.example.com", NodeID:"node-2", TopologyKeys:[]string{"topology.example.com/zone"}, Allocatable:(*storage.VolumeNodeResources)(0xc000a1e180)}: field is immutable',
    ]);
  });
});
