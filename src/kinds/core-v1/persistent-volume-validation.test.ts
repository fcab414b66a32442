import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { prepareVolumeForCreate, prepareVolumeForUpdate } from './persistent-volume-fields.js';
import { persistentVolumeWarnings, validatePersistentVolume, validatePersistentVolumeUpdate } from './persistent-volume-validation.js';
import { objectWith, rendered } from './validation-test-helpers.js';

const baseSpec = (): Record<string, unknown> => ({
  accessModes: ['ReadWriteOnce'],
  capacity: { storage: '5Gi' },
  hostPath: { path: '/data', type: '' },
  persistentVolumeReclaimPolicy: 'Retain',
  volumeMode: 'Filesystem',
});
const volume = (patch: Record<string, unknown> = {}, extra: Partial<KubeObject> = {}): KubeObject => {
  const spec: Record<string, unknown> = { ...baseSpec(), ...patch };
  for (const [k, v] of Object.entries(spec)) if (v === undefined) delete spec[k];
  return objectWith('PersistentVolume', 'pv-1', spec, extra);
};
const affinity = {
  required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] },
};

describe('PersistentVolume create (ValidatePersistentVolumeSpec)', () => {
  const valid: [string, Record<string, unknown>][] = [
    ['a hostPath volume', {}],
    ['an nfs volume', { hostPath: undefined, nfs: { server: 'nfs.example.com', path: '/exports' } }],
    ['a local volume with node affinity', { hostPath: undefined, local: { path: '/mnt/disk' }, nodeAffinity: affinity }],
    ['a csi volume', { hostPath: undefined, csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' } }],
    ['ReadWriteOncePod, Block mode and a class', { accessModes: ['ReadWriteOncePod'], volumeMode: 'Block', storageClassName: 'manual' }],
  ];
  for (const [name, patch] of valid) {
    it(`accepts ${name}`, () => assert.deepEqual(validatePersistentVolume(volume(patch)), []));
  }

  const invalid: [string, Record<string, unknown>, string[]][] = [
    [
      'no capacity',
      { capacity: undefined },
      ['spec.capacity: Required value', 'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"'],
    ],
    [
      'a capacity of another resource',
      { capacity: { storage: '1Gi', cpu: '1' } },
      ['spec.capacity: Unsupported value: core.ResourceList{"cpu":"1", "storage":"1Gi"}: supported values: "storage"'],
    ],
    [
      'a negative capacity',
      { capacity: { storage: '-1Gi' } },
      [
        'spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity',
        'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
      ],
    ],
    ['no access modes', { accessModes: [] }, ['spec.accessModes: Required value']],
    [
      'an unknown reclaim policy',
      { persistentVolumeReclaimPolicy: 'Shred' },
      ['spec.persistentVolumeReclaimPolicy: Unsupported value: "Shred": supported values: "Delete", "Recycle", "Retain"'],
    ],
    ['no volume source', { hostPath: undefined }, ['spec: Required value: must specify a volume type']],
    [
      'two volume sources',
      { nfs: { server: 'nfs.example.com', path: '/exports' } },
      ['spec.nfs: Forbidden: may not specify more than 1 volume type'],
    ],
    ['a hostPath without path (validateHostPathVolumeSource)', { hostPath: { path: '' } }, ['spec.hostPath.path: Required value']],
    [
      'a hostPath with ".."',
      { hostPath: { path: '/data/../etc' } },
      [`spec.hostPath.path: Invalid value: "/data/../etc": must not contain '..'`],
    ],
    [
      'an unknown hostPath type',
      { hostPath: { path: '/data', type: 'Dir' } },
      [
        'spec.hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
      ],
    ],
    [
      'Recycle on a hostPath of /',
      { hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' },
      [`spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'`],
    ],
    [
      'an nfs volume without server and a relative path (validateNFSVolumeSource)',
      { hostPath: undefined, nfs: { path: 'exports' } },
      ['spec.nfs.server: Required value', 'spec.nfs.path: Invalid value: "exports": must be an absolute path'],
    ],
    [
      'a local volume without node affinity',
      { hostPath: undefined, local: { path: '/mnt' } },
      ['spec.nodeAffinity: Required value: Local volume requires node affinity'],
    ],
    [
      'node affinity without terms (ValidateNodeSelector)',
      { nodeAffinity: { required: { nodeSelectorTerms: [] } } },
      ['spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term'],
    ],
    [
      'node affinity without required',
      { nodeAffinity: {} },
      ['spec.nodeAffinity.required: Required value: must specify required node constraints'],
    ],
    [
      'a node selector requirement with a bad operator and Gt without a value',
      {
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'a', operator: 'Near' },
                  { key: 'b', operator: 'Gt', values: [] },
                ],
              },
            ],
          },
        },
      },
      [
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
      ],
    ],
    [
      'a node field selector on another field',
      { nodeAffinity: { required: { nodeSelectorTerms: [{ matchFields: [{ key: 'spec.nodeName', operator: 'In', values: ['n'] }] }] } } },
      [
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key',
      ],
    ],
    [
      'a csi volume without driver or handle (validateCSIPersistentVolumeSource)',
      { hostPath: undefined, csi: { driver: '', volumeHandle: '', nodePublishSecretRef: { name: 's' } } },
      [
        'spec.csi.driver: Required value',
        `spec.csi.driver: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        'spec.csi.volumeHandle: Required value',
        'spec.csi.nodePublishSecretRef.namespace: Required value',
      ],
    ],
    [
      'flocker with both dataset fields and fc without lun (validateFlockerVolumeSource, validateFCVolumeSource)',
      { hostPath: undefined, flocker: { datasetName: 'a/b', datasetUUID: 'u' }, fc: { targetWWNs: ['w'] } },
      [
        'spec.flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously',
        'spec.flocker.datasetName: Invalid value: "a/b": must not contain \'/\'',
        'spec.fc: Forbidden: may not specify more than 1 volume type',
      ],
    ],
    [
      'fc with both targetWWNs and wwids and a lun out of range',
      { hostPath: undefined, fc: { targetWWNs: ['w'], wwids: ['i'], lun: 256 } },
      [
        'spec.fc.targetWWNs: Invalid value: []string{"w"}: targetWWNs and wwids can not be specified simultaneously',
        'spec.fc.lun: Invalid value: 256: must be between 0 and 255, inclusive',
      ],
    ],
    [
      'quobyte with a registry that is not host:port and no volume (validateQuobyteVolumeSource)',
      { hostPath: undefined, quobyte: { registry: 'reg:7861,bare' } },
      [
        'spec.quobyte.registry: Invalid value: "reg:7861,bare": must be a host:port pair or multiple pairs separated by commas',
        'spec.quobyte.volume: Required value',
      ],
    ],
    [
      'an unknown volume mode',
      { volumeMode: 'Raw' },
      ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"'],
    ],
  ];
  for (const [name, patch, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validatePersistentVolume(volume(patch))), expected));
  }

  it('refuses the mount options annotation on a hostPath volume (pkg/volume/validation checkMountOption)', () => {
    const pv = volume({}, { metadata: { name: 'pv-1', annotations: { 'volume.beta.kubernetes.io/mount-options': 'ro' } } });
    assert.deepEqual(rendered(validatePersistentVolume(pv)), [
      'metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type',
    ]);
    const nfs = volume(
      { hostPath: undefined, nfs: { server: 's', path: '/e' } },
      { metadata: { name: 'pv-1', annotations: { 'volume.beta.kubernetes.io/mount-options': 'ro' } } },
    );
    assert.deepEqual(validatePersistentVolume(nfs), []);
  });

  it('warns that Recycle is deprecated (GetWarningsForPersistentVolume)', () => {
    assert.deepEqual(persistentVolumeWarnings(volume({ persistentVolumeReclaimPolicy: 'Recycle' })), [
      'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    ]);
  });
});

describe('PersistentVolume update (ValidatePersistentVolumeUpdate)', () => {
  it('drops volumeAttributesClassName while its gate is off, unless the stored volume has it (DropDisabledSpecFields)', () => {
    const created = volume({ volumeAttributesClassName: 'gold' });
    prepareVolumeForCreate(created);
    assert.equal((created.spec as Record<string, unknown>).volumeAttributesClassName, undefined);
    const next = volume({ volumeAttributesClassName: 'gold' });
    prepareVolumeForUpdate(next, volume());
    assert.deepEqual(validatePersistentVolumeUpdate(next, volume()), []);
  });

  const firstLine = (messages: string[]): string[] => messages.map((m) => m.split('\n')[0] ?? '');

  it('accepts changes of capacity, class, policy and a claimRef, and node affinity set for the first time', () => {
    const next = volume({
      capacity: { storage: '10Gi' },
      persistentVolumeReclaimPolicy: 'Delete',
      claimRef: { namespace: 'ns', name: 'c' },
      nodeAffinity: affinity,
    });
    assert.deepEqual(validatePersistentVolumeUpdate(next, volume()), []);
  });

  it('lets a csi volume gain a controllerExpandSecretRef', () => {
    const old = volume({ hostPath: undefined, csi: { driver: 'd.example.com', volumeHandle: 'h' } });
    const next = volume({
      hostPath: undefined,
      csi: { driver: 'd.example.com', volumeHandle: 'h', controllerExpandSecretRef: { name: 's', namespace: 'ns' } },
    });
    assert.deepEqual(validatePersistentVolumeUpdate(next, old), []);
  });

  const refused: [string, KubeObject, KubeObject, string[]][] = [
    [
      'a change of the volume source',
      volume({ hostPath: { path: '/other', type: '' } }),
      volume(),
      ['spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation'],
    ],
    ['a volume mode change', volume({ volumeMode: 'Block' }), volume(), ['volumeMode: Invalid value: "Block": field is immutable']],
    [
      'a change of node affinity once set',
      volume({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }] } } }),
      volume({ nodeAffinity: affinity }),
      [
        'nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000a1e100)}: field is immutable, except for updating from beta label to GA',
      ],
    ],
    ['an invalid spec, as on create', volume({ accessModes: [] }), volume(), ['spec.accessModes: Required value']],
  ];
  for (const [name, next, old, expected] of refused) {
    it(`refuses ${name}`, () => assert.deepEqual(firstLine(rendered(validatePersistentVolumeUpdate(next, old))), expected));
  }

  it('appends a go-cmp style diff of the volume source', () => {
    const [message] = rendered(validatePersistentVolumeUpdate(volume({ hostPath: { path: '/other', type: '' } }), volume()));
    assert.equal(
      message?.split('\n').slice(1).join('\n'),
      [
        '  core.PersistentVolumeSource{',
        '- \tHostPath: {"path":"/data","type":""},',
        '+ \tHostPath: {"path":"/other","type":""},',
        '  \t... // 21 identical fields',
        '  }',
        '',
      ].join('\n'),
    );
  });
});
