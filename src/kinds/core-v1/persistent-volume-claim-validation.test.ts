import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { prepareClaimForCreate } from './persistent-volume-fields.js';
import {
  persistentVolumeClaimWarnings,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from './persistent-volume-claim-validation.js';
import { objectWith, rendered } from './validation-test-helpers.js';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const ACCESS_MODES = 'supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"';

const baseSpec = (): Record<string, unknown> => ({
  accessModes: ['ReadWriteOnce'],
  resources: { requests: { storage: '1Gi' } },
  volumeMode: 'Filesystem',
});
const claim = (patch: Record<string, unknown> = {}, extra: Partial<KubeObject> = {}): KubeObject =>
  objectWith('PersistentVolumeClaim', 'data', { ...baseSpec(), ...patch }, extra);

describe('PersistentVolumeClaim create (ValidatePersistentVolumeClaimSpec)', () => {
  const valid: [string, Record<string, unknown>][] = [
    ['the minimal claim', {}],
    ['ReadWriteOncePod alone', { accessModes: ['ReadWriteOncePod'] }],
    [
      'a class, a selector and Block mode',
      { storageClassName: 'fast.example.com', selector: { matchLabels: { tier: 'db' } }, volumeMode: 'Block' },
    ],
    ['a claim data source', { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }],
    [
      'a snapshot source matching its ref',
      {
        dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' },
        dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' },
      },
    ],
  ];
  for (const [name, patch] of valid) {
    it(`accepts ${name}`, () => assert.deepEqual(validatePersistentVolumeClaim(claim(patch)), []));
  }

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['no access modes', { accessModes: [] }, ['spec.accessModes: Required value: at least 1 access mode is required']],
    [
      'an unknown access mode',
      { accessModes: ['ReadWriteSometimes'] },
      [`spec.accessModes: Unsupported value: "ReadWriteSometimes": ${ACCESS_MODES}`],
    ],
    [
      'ReadWriteOncePod with another mode',
      { accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] },
      ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes'],
    ],
    ['no storage request', { resources: { requests: {} } }, ['spec.resources[storage]: Required value']],
    [
      'a negative storage request',
      { resources: { requests: { storage: '-1Gi' } } },
      ['spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero'],
    ],
    [
      'a zero storage request',
      { resources: { requests: { storage: '0' } } },
      ['spec.resources[storage]: Invalid value: "0": must be greater than zero'],
    ],
    ['a class that is not a subdomain', { storageClassName: 'Fast' }, [`spec.storageClassName: Invalid value: "Fast": ${SUBDOMAIN}`]],
    [
      'an unknown volume mode',
      { volumeMode: 'Raw' },
      ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"'],
    ],
    [
      'a selector with a bad operator (metav1validation.ValidateLabelSelector)',
      { selector: { matchExpressions: [{ key: 'tier', operator: 'Has' }] } },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator'],
    ],
    [
      'a data source without name or kind (validateDataSource)',
      { dataSource: { name: '' } },
      [
        'spec.dataSource.name: Required value',
        'spec.dataSource.kind: Required value',
        `spec.dataSource: Invalid value: "": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
      ],
    ],
    [
      'a core data source of another kind',
      { dataSource: { kind: 'Secret', name: 's' } },
      [`spec.dataSource: Invalid value: "Secret": must be 'PersistentVolumeClaim' when referencing the default apiGroup`],
    ],
    [
      'a data source ref whose group is not a subdomain (validateDataSourceRef)',
      { dataSourceRef: { apiGroup: 'Snap', kind: 'VolumeSnapshot', name: 's' } },
      [`spec.dataSourceRef.apiGroup: Invalid value: "Snap": ${SUBDOMAIN}`],
    ],
    [
      'a data source that differs from its ref',
      { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } },
      ['spec: Invalid value: field.Path{name:"dataSource", index:"", parent:(*field.Path)(0xc000a1e0c0)}: must match dataSourceRef'],
    ],
  ];
  for (const [name, patch, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validatePersistentVolumeClaim(claim(patch))), expected));
  }

  it('fills dataSourceRef from dataSource and drops the disabled fields before validation (PrepareForCreate)', () => {
    const pvc = claim({ dataSource: { kind: 'PersistentVolumeClaim', name: 'src' }, volumeAttributesClassName: 'gold' });
    prepareClaimForCreate(pvc);
    assert.deepEqual(pvc.spec, {
      ...baseSpec(),
      dataSource: { kind: 'PersistentVolumeClaim', name: 'src' },
      dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'src' },
    });
  });

  it('warns about the beta class annotation and fractional bytes (GetWarningsForPersistentVolumeClaim)', () => {
    const pvc = claim(
      { resources: { requests: { storage: '1500m' } } },
      { metadata: { name: 'data', annotations: { 'volume.beta.kubernetes.io/storage-class': 'x' } } },
    );
    assert.deepEqual(persistentVolumeClaimWarnings(pvc), [
      'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
      'spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
    ]);
  });
});

describe('PersistentVolumeClaim update (ValidatePersistentVolumeClaimUpdate)', () => {
  const bound = (patch: Record<string, unknown> = {}): KubeObject =>
    claim({ volumeName: 'pv-1', ...patch }, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } });
  const firstLine = (messages: string[]): string[] => messages.map((m) => m.split('\n')[0] ?? '');

  it('lets the binder set volumeName once and a bound claim grow', () => {
    assert.deepEqual(validatePersistentVolumeClaimUpdate(claim({ volumeName: 'pv-1' }), claim()), []);
    assert.deepEqual(validatePersistentVolumeClaimUpdate(bound({ resources: { requests: { storage: '2Gi' } } }), bound()), []);
  });

  it('lets a claim without class get one (validateStorageClassUpgradeFromNil)', () => {
    assert.deepEqual(validatePersistentVolumeClaimUpdate(claim({ storageClassName: 'standard' }), claim()), []);
  });

  const refused: [string, KubeObject, KubeObject, string[]][] = [
    [
      'an access mode change',
      claim({ accessModes: ['ReadWriteMany'] }),
      claim(),
      ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'],
    ],
    [
      'a resize of an unbound claim',
      claim({ resources: { requests: { storage: '2Gi' } } }),
      claim(),
      ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'],
    ],
    [
      'a bound claim shrinking to its capacity (RecoverVolumeExpansionFailure)',
      bound({ resources: { requests: { storage: '1Gi' } } }),
      bound({ resources: { requests: { storage: '2Gi' } } }),
      ['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity'],
    ],
    [
      'a volume mode change',
      claim({ volumeMode: 'Block' }),
      claim(),
      [
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
        'volumeMode: Invalid value: "Block": field is immutable',
      ],
    ],
    [
      'a change of volumeName once set',
      claim({ volumeName: 'pv-2' }),
      claim({ volumeName: 'pv-1' }),
      ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'],
    ],
    [
      'an invalid spec, refused as on create',
      claim({ accessModes: [] }),
      claim(),
      [
        'spec.accessModes: Required value: at least 1 access mode is required',
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ],
    ],
  ];
  for (const [name, next, old, expected] of refused) {
    it(`refuses ${name}`, () => assert.deepEqual(firstLine(rendered(validatePersistentVolumeClaimUpdate(next, old))), expected));
  }

  it('appends a go-cmp style diff of the spec to the immutability error', () => {
    const [message] = rendered(validatePersistentVolumeClaimUpdate(claim({ accessModes: ['ReadWriteMany'] }), claim()));
    assert.equal(
      message?.split('\n').slice(1).join('\n'),
      [
        '  core.PersistentVolumeClaimSpec{',
        '- \tAccessModes: ["ReadWriteOnce"],',
        '+ \tAccessModes: ["ReadWriteMany"],',
        '  \t... // 8 identical fields',
        '  }',
        '',
      ].join('\n'),
    );
  });

  it('tolerates a selector value the stored claim already had (AllowInvalidLabelValueInSelector)', () => {
    const old = claim({ selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] } });
    assert.deepEqual(validatePersistentVolumeClaimUpdate(structuredClone(old), old), []);
  });
});

describe('PersistentVolumeClaim status (ValidatePersistentVolumeClaimStatusUpdate)', () => {
  const withStatus = (status: Record<string, unknown>): KubeObject => claim({}, { status });

  it('accepts a bound status with capacity and allocated resources', () => {
    const status = {
      phase: 'Bound',
      capacity: { storage: '1Gi' },
      allocatedResources: { storage: '1Gi' },
      allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' },
    };
    assert.deepEqual(validatePersistentVolumeClaimStatusUpdate(withStatus(status)), []);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    [
      'a negative capacity',
      { capacity: { storage: '-1Gi' } },
      ['status.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity'],
    ],
    [
      'an unknown resize status',
      { allocatedResourceStatuses: { storage: 'Shrinking' } },
      [
        'status.allocatedResourceStatus: Unsupported value: "storage": supported values: "ControllerResizeFailed", "ControllerResizeInProgress", "NodeResizeFailed", "NodeResizeInProgress", "NodeResizePending"',
      ],
    ],
    [
      'a native resource other than storage',
      { allocatedResources: { cpu: '1' } },
      ['status.allocatedResources: Unsupported value: "cpu": supported values: "storage"'],
    ],
    [
      'a negative allocation',
      { allocatedResources: { storage: '-1' } },
      ['status.allocatedResources[storage]: Invalid value: -1: must be a valid resource quantity'],
    ],
  ];
  for (const [name, status, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validatePersistentVolumeClaimStatusUpdate(withStatus(status))), expected));
  }
});
