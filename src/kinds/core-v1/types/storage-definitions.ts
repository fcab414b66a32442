import type { Definitions } from '../../../openapi/schema.js';
import { LEGACY_PERSISTENT_VOLUME_SOURCES } from './legacy-volumes-definitions.js';
import {
  ATOMIC_STRUCT,
  bool,
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
} from '../../../openapi/builders/shorthand.js';

/** core/v1 PersistentVolumeClaim and PersistentVolume with their specs and statuses. */

const ACCESS_MODES = stringArray('Access modes: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.');
const VOLUME_MODE = str('Whether the volume is a formatted filesystem or a raw block device. Defaults to Filesystem.', {
  enum: ['Block', 'Filesystem'],
});

const PVC = coreKind({
  kind: 'PersistentVolumeClaim',
  description: 'A user’s request for and claim to a persistent volume.',
  properties: {
    spec: core('PersistentVolumeClaimSpec', 'Desired characteristics of the volume requested.'),
    status: core('PersistentVolumeClaimStatus', 'Current information about the claim. Read-only.'),
  },
  listDescription: 'List of PersistentVolumeClaim objects.',
  itemsDescription: 'The persistent volume claims.',
});

const PV = coreKind({
  kind: 'PersistentVolume',
  description: 'Storage resource provisioned by an administrator, analogous to a node.',
  properties: {
    spec: core('PersistentVolumeSpec', 'Characteristics of the volume, set by the administrator.'),
    status: core('PersistentVolumeStatus', 'Current information about the volume. Read-only.'),
  },
  listDescription: 'List of PersistentVolume objects.',
  itemsDescription: 'The persistent volumes.',
});

export const CORE_V1_STORAGE_DEFINITIONS: Definitions = {
  ...PVC,
  ...PV,
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
  [`${CORE}SecretReference`]: object(
    'Reference to a secret by name and namespace.',
    {
      name: str('Name of the secret, unique within its namespace.'),
      namespace: str('Namespace of the secret.'),
    },
    ATOMIC_STRUCT,
  ),
};
