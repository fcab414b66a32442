import { isObject, type KubeObject } from '../../api/types.js';
import { bool, CORE, core, coreKind, object, quantityMap, str, stringArray, stringMap, time } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { accessModes, age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { prepareVolumeForCreate, prepareVolumeForUpdate } from './persistent-volume-fields.js';
import { persistentVolumeWarnings, validatePersistentVolume, validatePersistentVolumeUpdate } from './persistent-volume-validation.js';
import { specOf } from './types/defaulting.js';
import { LEGACY_PERSISTENT_VOLUME_SOURCES } from './types/legacy-volumes-definitions.js';
import { ACCESS_MODES, VOLUME_MODE } from './types/storage-definitions.js';
import { orUnset, phaseOrTerminating, quantity, storageClass } from './types/storage-printing.js';
import { defaultVolumeSources } from './types/volume-defaults.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const persistentVolumeSpecAccessModes =
  'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes';
const persistentVolumeSpecCapacity =
  "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity";
const persistentVolumeSpecClaimRef =
  'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding';
const persistentVolumeSpecPersistentVolumeReclaimPolicy =
  'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming';
const persistentVolumeSpecVolumeMode =
  'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.';
const persistentVolumeStatusPhase =
  'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase';
const persistentVolumeStatusReason =
  'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.';

const PERSISTENT_VOLUME_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Capacity', 'string', persistentVolumeSpecCapacity),
    column('Access Modes', 'string', persistentVolumeSpecAccessModes),
    column('Reclaim Policy', 'string', persistentVolumeSpecPersistentVolumeReclaimPolicy),
    column('Status', 'string', persistentVolumeStatusPhase),
    column('Claim', 'string', persistentVolumeSpecClaimRef),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', persistentVolumeStatusReason),
    AGE_COLUMN,
    column('VolumeMode', 'string', persistentVolumeSpecVolumeMode, { wide: true }),
  ],
  row(obj, now) {
    const claimRef = get(obj, 'spec', 'claimRef');
    const claim = isObject(claimRef) ? `${text(claimRef.namespace)}/${text(claimRef.name)}` : '';
    return [
      obj.metadata.name ?? '',
      quantity(get(obj, 'spec', 'capacity', 'storage')),
      accessModes(get(obj, 'spec', 'accessModes')),
      text(get(obj, 'spec', 'persistentVolumeReclaimPolicy')),
      phaseOrTerminating(obj),
      claim,
      storageClass(obj),
      orUnset(get(obj, 'spec', 'volumeAttributesClassName')),
      text(get(obj, 'status', 'reason')),
      age(obj.metadata.creationTimestamp, now),
      orUnset(get(obj, 'spec', 'volumeMode')),
    ];
  },
};

const PV_TYPES = coreKind({
  kind: 'PersistentVolume',
  description: 'Storage resource provisioned by an administrator, analogous to a node.',
  properties: {
    spec: core('PersistentVolumeSpec', 'Characteristics of the volume, set by the administrator.'),
    status: core('PersistentVolumeStatus', 'Current information about the volume. Read-only.'),
  },
  listDescription: 'List of PersistentVolume objects.',
  itemsDescription: 'The persistent volumes.',
});

function defaultPersistentVolume(obj: KubeObject): void {
  const s = specOf(obj);
  s.persistentVolumeReclaimPolicy ??= 'Retain';
  s.volumeMode ??= 'Filesystem';
  defaultVolumeSources(s);
}

const DEFINITIONS: Definitions = {
  ...PV_TYPES,
  [`${CORE}PersistentVolumeSpec`]: object('Specification of a persistent volume.', {
    ...LEGACY_PERSISTENT_VOLUME_SOURCES,
    accessModes: ACCESS_MODES,
    capacity: quantityMap('Capacity of the volume.'),
    claimRef: core('ObjectReference', 'The claim bound to this volume, set by the binder; may be pre-set to reserve the volume.', {
      'x-kubernetes-map-type': 'granular',
    }),
    csi: core('CSIPersistentVolumeSource', 'Storage handled by an external CSI driver.'),
    hostPath: core('HostPathVolumeSource', 'Directory on the host; for single-node development and testing only.'),
    local: core('LocalVolumeSource', 'Directly-attached storage with node affinity.'),
    mountOptions: stringArray('Mount options, not validated.'),
    nfs: core('NFSVolumeSource', 'NFS mount on the host.'),
    nodeAffinity: core('VolumeNodeAffinity', 'Nodes this volume can be accessed from.'),
    persistentVolumeReclaimPolicy: str('What happens to the volume when released from its claim. Defaults to Retain.', {
      enum: ['Delete', 'Recycle', 'Retain'],
    }),
    storageClassName: str('StorageClass this volume belongs to; empty means no class.'),
    volumeAttributesClassName: str('VolumeAttributesClass this volume belongs to.'),
    volumeMode: VOLUME_MODE,
  }),
  [`${CORE}PersistentVolumeStatus`]: object('Current status of a persistent volume.', {
    lastPhaseTransitionTime: time('When the volume last changed phase.'),
    message: str('Human-readable message about why the volume is in this state.'),
    phase: str('Lifecycle phase of the volume.', { enum: ['Available', 'Bound', 'Failed', 'Pending', 'Released'] }),
    reason: str('Brief CamelCase reason for a failure.'),
  }),
  [`${CORE}VolumeNodeAffinity`]: object('Constraints that limit the nodes a volume can be accessed from.', {
    required: core('NodeSelector', 'Hard node constraints that must be met.'),
  }),
  [`${CORE}LocalVolumeSource`]: object(
    'Directly-attached storage with node affinity.',
    {
      fsType: str('Filesystem type for a block device path; ignored for directories.'),
      path: str('Full path to the volume on the node: a directory or a block device.'),
    },
    { required: ['path'] },
  ),
  [`${CORE}CSIPersistentVolumeSource`]: object(
    'Storage managed by an external CSI volume driver.',
    {
      controllerExpandSecretRef: core('SecretReference', 'Secret passed to ControllerExpandVolume calls.'),
      controllerPublishSecretRef: core('SecretReference', 'Secret passed to ControllerPublishVolume calls.'),
      driver: str('Name of the driver for this volume.'),
      fsType: str('Filesystem type to mount, e.g. "ext4".'),
      nodeExpandSecretRef: core('SecretReference', 'Secret passed to NodeExpandVolume calls.'),
      nodePublishSecretRef: core('SecretReference', 'Secret passed to NodePublishVolume calls.'),
      nodeStageSecretRef: core('SecretReference', 'Secret passed to NodeStageVolume calls.'),
      readOnly: bool('Read-only setting passed to ControllerPublishVolume. Defaults to false.'),
      volumeAttributes: stringMap('Attributes of the volume to publish.'),
      volumeHandle: str('Unique volume name returned by the driver’s CreateVolume call.'),
    },
    { required: ['driver', 'volumeHandle'] },
  ),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.CSIPersistentVolumeSource': {
    tags: {
      driver: 1,
      volumeHandle: 2,
      readOnly: 3,
      fsType: 4,
      volumeAttributes: 5,
      controllerPublishSecretRef: 6,
      nodeStageSecretRef: 7,
      nodePublishSecretRef: 8,
      controllerExpandSecretRef: 9,
      nodeExpandSecretRef: 10,
    },
  },
  'io.k8s.api.core.v1.LocalVolumeSource': { tags: { path: 1, fsType: 2 }, pointers: ['fsType'] },
  'io.k8s.api.core.v1.PersistentVolume': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.PersistentVolumeList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeSource': {
    tags: {
      gcePersistentDisk: 1,
      awsElasticBlockStore: 2,
      hostPath: 3,
      glusterfs: 4,
      nfs: 5,
      rbd: 6,
      iscsi: 7,
      cinder: 8,
      cephfs: 9,
      fc: 10,
      flocker: 11,
      flexVolume: 12,
      azureFile: 13,
      vsphereVolume: 14,
      quobyte: 15,
      azureDisk: 16,
      photonPersistentDisk: 17,
      portworxVolume: 18,
      scaleIO: 19,
      local: 20,
      storageos: 21,
      csi: 22,
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeSpec': {
    tags: {
      capacity: 1,
      accessModes: 3,
      claimRef: 4,
      persistentVolumeReclaimPolicy: 5,
      storageClassName: 6,
      mountOptions: 7,
      volumeMode: 8,
      nodeAffinity: 9,
      volumeAttributesClassName: 10,
    },
    pointers: ['volumeMode', 'volumeAttributesClassName'],
    inline: { 2: 'io.k8s.api.core.v1.PersistentVolumeSource' },
  },
  'io.k8s.api.core.v1.PersistentVolumeStatus': {
    tags: { phase: 1, message: 2, reason: 3, lastPhaseTransitionTime: 4 },
  },
  'io.k8s.api.core.v1.VolumeNodeAffinity': { tags: { required: 1 } },
};

/** core/v1 PersistentVolume. */
export const PERSISTENT_VOLUME: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    namespaced: false,
    shortNames: ['pv'],
    subresources: [STATUS],
  }),
  strategy: {
    // The phase's transition time starts at creation (PersistentVolumeLastPhaseTransitionTime, GA in 1.31).
    initialStatus: (obj) => ({ phase: 'Pending', lastPhaseTransitionTime: obj.metadata.creationTimestamp }),
    defaults: defaultPersistentVolume,
    prepareForCreate: prepareVolumeForCreate,
    prepareForUpdate: prepareVolumeForUpdate,
    validate: validatePersistentVolume,
    validateUpdate: validatePersistentVolumeUpdate,
    // ValidatePersistentVolumeStatusUpdate checks only metadata, which the store does.
    validateStatusUpdate: () => [],
    warningsOnCreate: persistentVolumeWarnings,
    warningsOnUpdate: persistentVolumeWarnings,
  },
  printer: PERSISTENT_VOLUME_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
