import {
  CORE,
  core,
  coreArray,
  coreKind,
  mergeByKey,
  meta,
  object,
  quantityMap,
  str,
  stringArray,
  stringMap,
  time,
} from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { accessModes, age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import {
  persistentVolumeClaimWarnings,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from './persistent-volume-claim-validation.js';
import { prepareClaimForCreate, prepareClaimForUpdate } from './persistent-volume-fields.js';
import { specOf } from './types/defaulting.js';
import { ACCESS_MODES, VOLUME_MODE } from './types/storage-definitions.js';
import { orUnset, phaseOrTerminating, quantity, storageClass } from './types/storage-printing.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const persistentVolumeClaimSpecVolumeMode =
  'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.';
const persistentVolumeClaimSpecVolumeName = 'volumeName is the binding reference to the PersistentVolume backing this claim.';
const persistentVolumeClaimStatusAccessModes =
  'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1';
const persistentVolumeClaimStatusCapacity = 'capacity represents the actual resources of the underlying volume.';
const persistentVolumeClaimStatusPhase = 'phase represents the current phase of PersistentVolumeClaim.';

const PERSISTENT_VOLUME_CLAIM_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Status', 'string', persistentVolumeClaimStatusPhase),
    column('Volume', 'string', persistentVolumeClaimSpecVolumeName),
    column('Capacity', 'string', persistentVolumeClaimStatusCapacity),
    column('Access Modes', 'string', persistentVolumeClaimStatusAccessModes),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE_COLUMN,
    column('VolumeMode', 'string', persistentVolumeClaimSpecVolumeMode, { wide: true }),
  ],
  row(obj, now) {
    const volumeName = text(get(obj, 'spec', 'volumeName'));
    // Capacity and access modes are only shown once the claim is bound to a volume.
    const bound = volumeName !== '';
    return [
      obj.metadata.name ?? '',
      phaseOrTerminating(obj),
      volumeName,
      bound ? quantity(get(obj, 'status', 'capacity', 'storage')) : '',
      bound ? accessModes(get(obj, 'status', 'accessModes')) : '',
      storageClass(obj),
      orUnset(get(obj, 'spec', 'volumeAttributesClassName')),
      age(obj.metadata.creationTimestamp, now),
      orUnset(get(obj, 'spec', 'volumeMode')),
    ];
  },
};

const PVC_TYPES = coreKind({
  kind: 'PersistentVolumeClaim',
  description: 'A user’s request for and claim to a persistent volume.',
  properties: {
    spec: core('PersistentVolumeClaimSpec', 'Desired characteristics of the volume requested.'),
    status: core('PersistentVolumeClaimStatus', 'Current information about the claim. Read-only.'),
  },
  listDescription: 'List of PersistentVolumeClaim objects.',
  itemsDescription: 'The persistent volume claims.',
});

const DEFINITIONS: Definitions = {
  ...PVC_TYPES,
  [`${CORE}PersistentVolumeClaimSpec`]: object('Common attributes of storage devices, with the claim source.', {
    accessModes: ACCESS_MODES,
    dataSource: core('TypedLocalObjectReference', 'Existing VolumeSnapshot or PersistentVolumeClaim to populate the volume from.'),
    dataSourceRef: core('TypedObjectReference', 'Object to populate the volume from, possibly a custom populator; supersedes dataSource.'),
    resources: core('VolumeResourceRequirements', 'Minimum resources the volume should have.'),
    selector: meta('LabelSelector', 'Label query over volumes to consider for binding.'),
    storageClassName: str('Name of the StorageClass required by the claim.'),
    volumeAttributesClassName: str('VolumeAttributesClass used by this claim.'),
    volumeMode: VOLUME_MODE,
    volumeName: str('Binding reference to the PersistentVolume backing this claim.'),
  }),
  [`${CORE}PersistentVolumeClaimStatus`]: object('Current status of a persistent volume claim.', {
    accessModes: stringArray('Access modes the backing volume actually has.'),
    allocatedResourceStatuses: stringMap('Status of resize operations per resource, e.g. "storage".', {
      'x-kubernetes-map-type': 'granular',
    }),
    allocatedResources: quantityMap('Resources allocated to the claim, including pending expansions.'),
    capacity: quantityMap('Actual resources of the underlying volume.'),
    conditions: coreArray('PersistentVolumeClaimCondition', 'Current conditions of the claim, e.g. Resizing.', mergeByKey('type')),
    currentVolumeAttributesClassName: str('VolumeAttributesClass currently applied to the claim.'),
    modifyVolumeStatus: core('ModifyVolumeStatus', 'Status of a pending volume modification.'),
    phase: str('Current phase of the claim.', { enum: ['Bound', 'Lost', 'Pending'] }),
  }),
  [`${CORE}PersistentVolumeClaimCondition`]: object(
    'State of a claim at one point in time.',
    {
      lastProbeTime: time('Last time the condition was probed.'),
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the last transition.'),
      reason: str('Unique CamelCase reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the condition, e.g. Resizing or FileSystemResizePending.'),
    },
    { required: ['type', 'status'] },
  ),
  [`${CORE}ModifyVolumeStatus`]: object(
    'Status of a ControllerModifyVolume operation.',
    {
      status: str('Status of the operation: Pending, InProgress or Infeasible.'),
      targetVolumeAttributesClassName: str('VolumeAttributesClass being reconciled towards.'),
    },
    { required: ['status'] },
  ),
  [`${CORE}VolumeResourceRequirements`]: object('Storage resource requirements of a volume.', {
    limits: quantityMap('Maximum amount of resources allowed.'),
    requests: quantityMap('Minimum amount of resources required.'),
  }),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ModifyVolumeStatus': { tags: { targetVolumeAttributesClassName: 1, status: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeClaim': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition': {
    tags: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': {
    tags: {
      accessModes: 1,
      resources: 2,
      volumeName: 3,
      selector: 4,
      storageClassName: 5,
      volumeMode: 6,
      dataSource: 7,
      dataSourceRef: 8,
      volumeAttributesClassName: 9,
    },
    pointers: ['storageClassName', 'volumeMode', 'volumeAttributesClassName'],
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': {
    tags: {
      phase: 1,
      accessModes: 2,
      capacity: 3,
      conditions: 4,
      allocatedResources: 5,
      allocatedResourceStatuses: 7,
      currentVolumeAttributesClassName: 8,
      modifyVolumeStatus: 9,
    },
    pointers: ['currentVolumeAttributesClassName'],
  },
  'io.k8s.api.core.v1.VolumeResourceRequirements': { tags: { limits: 1, requests: 2 } },
};

/** core/v1 PersistentVolumeClaim. */
export const PERSISTENT_VOLUME_CLAIM: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: [STATUS],
  }),
  strategy: {
    initialStatus: () => ({ phase: 'Pending' }),
    defaults: (obj) => {
      specOf(obj).volumeMode ??= 'Filesystem';
    },
    prepareForCreate: prepareClaimForCreate,
    prepareForUpdate: prepareClaimForUpdate,
    validate: validatePersistentVolumeClaim,
    validateUpdate: validatePersistentVolumeClaimUpdate,
    validateStatusUpdate: validatePersistentVolumeClaimStatusUpdate,
    warningsOnCreate: persistentVolumeClaimWarnings,
    warningsOnUpdate: persistentVolumeClaimWarnings,
  },
  printer: PERSISTENT_VOLUME_CLAIM_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
