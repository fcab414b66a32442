import type { Definitions, Schema } from '../../../openapi/schema.js';
import { bool, CORE, core, int32, object, str, stringArray, stringMap } from '../../../openapi/builders/shorthand.js';

/**
 * The in-tree volume plugins of core/v1 (most deprecated and migrated to CSI drivers, a few removed from the
 * kubelet), which Kubernetes 1.32 still accepts in Volume and PersistentVolumeSpec. Cascade stores them like any
 * other field; describing them keeps strict field validation and protobuf decoding from refusing old manifests.
 * The PersistentVolume variants differ from the pod ones only in how they name their secret.
 */

const FS_TYPE = str('Filesystem type to mount, e.g. "ext4", "xfs" or "ntfs"; "ext4" when unset.');
const READ_ONLY = bool('Force the mount to be read-only. Defaults to false.');
const POD_SECRET = core('LocalObjectReference', 'Secret in the pod’s namespace holding the credentials.');
const PV_SECRET = core('SecretReference', 'Secret holding the credentials; its namespace may differ from the claim’s.');

/** A source defined twice, once for pods (secret in the pod's namespace) and once for persistent volumes. */
function podAndPersistent(
  pod: string,
  persistent: string,
  description: string,
  properties: (secret: Schema) => Record<string, Schema>,
  required: string[],
): Definitions {
  return {
    [`${CORE}${pod}`]: object(description, properties(POD_SECRET), { required }),
    [`${CORE}${persistent}`]: object(description, properties(PV_SECRET), { required }),
  };
}

const rbd = (secret: Schema): Record<string, Schema> => ({
  fsType: FS_TYPE,
  image: str('Name of the RADOS image.'),
  keyring: str('Path of the keyring for the RBD user.', { default: '/etc/ceph/keyring' }),
  monitors: stringArray('Ceph monitors to connect to.'),
  pool: str('RADOS pool holding the image.', { default: 'rbd' }),
  readOnly: READ_ONLY,
  secretRef: secret,
  user: str('RADOS user name.', { default: 'admin' }),
});

const iscsi = (secret: Schema): Record<string, Schema> => ({
  chapAuthDiscovery: bool('Whether iSCSI discovery uses CHAP authentication.'),
  chapAuthSession: bool('Whether iSCSI sessions use CHAP authentication.'),
  fsType: FS_TYPE,
  initiatorName: str('Custom iSCSI initiator name; with iscsiInterface set, a new interface <portal>:<name> is created.'),
  iqn: str('iSCSI qualified name of the target.'),
  iscsiInterface: str('iSCSI interface using the iSCSI transport.', { default: 'default' }),
  lun: int32('iSCSI target logical unit number.'),
  portals: stringArray('Further target portals: IP or ip_addr:port (port 3260 when omitted).'),
  readOnly: READ_ONLY,
  secretRef: { ...secret, description: 'Secret holding the CHAP credentials.' },
  targetPortal: str('Target portal: IP or ip_addr:port (port 3260 when omitted).'),
});

const scaleIO = (secret: Schema): Record<string, Schema> => ({
  fsType: str('Filesystem type to mount; "xfs" when unset.', { default: 'xfs' }),
  gateway: str('Host address of the ScaleIO API gateway.'),
  protectionDomain: str('ScaleIO protection domain of the configured storage.'),
  readOnly: READ_ONLY,
  secretRef: { ...secret, description: 'Secret holding the ScaleIO user credentials; required for login.' },
  sslEnabled: bool('Whether SSL is used to talk to the gateway.'),
  storageMode: str('Whether the volume is ThickProvisioned or ThinProvisioned.', { default: 'ThinProvisioned' }),
  storagePool: str('ScaleIO storage pool of the protection domain.'),
  system: str('Name of the storage system configured in ScaleIO.'),
  volumeName: str('Name of a volume already created in the ScaleIO system.'),
});

const cephfs = (secret: Schema): Record<string, Schema> => ({
  monitors: stringArray('Ceph monitors to connect to.'),
  path: str('Path within the mounted tree to use as root; "/" when unset.'),
  readOnly: READ_ONLY,
  secretFile: str('Path of the key ring for the user; /etc/ceph/user.secret when unset.'),
  secretRef: secret,
  user: str('RADOS user name; "admin" when unset.'),
});

const cinder = (secret: Schema): Record<string, Schema> => ({
  fsType: FS_TYPE,
  readOnly: READ_ONLY,
  secretRef: { ...secret, description: 'Secret with the parameters used to connect to OpenStack.' },
  volumeID: str('ID of the Cinder volume.'),
});

const flex = (secret: Schema): Record<string, Schema> => ({
  driver: str('Name of the driver for this volume.'),
  fsType: str('Filesystem type to mount; the default depends on the FlexVolume script.'),
  options: stringMap('Extra command options for the driver.'),
  readOnly: READ_ONLY,
  secretRef: { ...secret, description: 'Secret passed to the plugin script, if any.' },
});

const CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];

export const CORE_V1_LEGACY_VOLUME_DEFINITIONS: Definitions = {
  ...podAndPersistent('RBDVolumeSource', 'RBDPersistentVolumeSource', 'Rados Block Device mount for the pod’s lifetime.', rbd, [
    'monitors',
    'image',
  ]),
  ...podAndPersistent('ISCSIVolumeSource', 'ISCSIPersistentVolumeSource', 'iSCSI disk, mounted read/write once.', iscsi, [
    'targetPortal',
    'iqn',
    'lun',
  ]),
  ...podAndPersistent('ScaleIOVolumeSource', 'ScaleIOPersistentVolumeSource', 'ScaleIO persistent volume.', scaleIO, [
    'gateway',
    'system',
    'secretRef',
  ]),
  ...podAndPersistent('CephFSVolumeSource', 'CephFSPersistentVolumeSource', 'Ceph filesystem mount for the pod’s lifetime.', cephfs, [
    'monitors',
  ]),
  ...podAndPersistent(
    'CinderVolumeSource',
    'CinderPersistentVolumeSource',
    'OpenStack Cinder volume, attached and mounted on the kubelet’s host.',
    cinder,
    ['volumeID'],
  ),
  ...podAndPersistent(
    'FlexVolumeSource',
    'FlexPersistentVolumeSource',
    'Generic volume provisioned and attached by an exec-based plugin.',
    flex,
    ['driver'],
  ),
  [`${CORE}AWSElasticBlockStoreVolumeSource`]: object(
    'AWS EBS disk attached to the host and exposed to the pod; it must be in the node’s zone.',
    {
      fsType: FS_TYPE,
      partition: int32('Partition to mount; 0 (the default) mounts the whole volume.'),
      readOnly: READ_ONLY,
      volumeID: str('Unique ID of the EBS volume.'),
    },
    { required: ['volumeID'] },
  ),
  [`${CORE}GCEPersistentDiskVolumeSource`]: object(
    'Google Compute Engine persistent disk; it must exist before mounting.',
    {
      fsType: FS_TYPE,
      partition: int32('Partition to mount; 0 (the default) mounts the whole disk.'),
      pdName: str('Name of the persistent disk in GCE.'),
      readOnly: READ_ONLY,
    },
    { required: ['pdName'] },
  ),
  [`${CORE}AzureDiskVolumeSource`]: object(
    'Azure data disk mounted on the host and bind-mounted into the pod.',
    {
      cachingMode: str('Host caching mode: None, ReadOnly or ReadWrite.', { default: 'ReadWrite', enum: CACHING_MODES }),
      diskName: str('Name of the data disk in blob storage.'),
      diskURI: str('URI of the data disk in blob storage.'),
      fsType: str('Filesystem type to mount; "ext4" when unset.', { default: 'ext4' }),
      kind: str('Disk kind: Shared (several disks per storage account), Dedicated or Managed.', {
        default: 'Shared',
        enum: DISK_KINDS,
      }),
      readOnly: { ...READ_ONLY, default: false },
    },
    { required: ['diskName', 'diskURI'] },
  ),
  [`${CORE}AzureFileVolumeSource`]: object(
    'Azure File Service mount on the host, bind-mounted into the pod.',
    {
      readOnly: READ_ONLY,
      secretName: str('Secret holding the Azure storage account name and key.'),
      shareName: str('Name of the Azure share.'),
    },
    { required: ['secretName', 'shareName'] },
  ),
  [`${CORE}AzureFilePersistentVolumeSource`]: object(
    'Azure File Service mount on the host, bind-mounted into the pod.',
    {
      readOnly: READ_ONLY,
      secretName: str('Secret holding the Azure storage account name and key.'),
      secretNamespace: str('Namespace of the secret; the pod’s namespace when unset.'),
      shareName: str('Name of the Azure share.'),
    },
    { required: ['secretName', 'shareName'] },
  ),
  [`${CORE}FCVolumeSource`]: object('Fibre Channel volume, mounted read/write once.', {
    fsType: FS_TYPE,
    lun: int32('Target logical unit number.'),
    readOnly: READ_ONLY,
    targetWWNs: stringArray('Target worldwide names (WWNs).'),
    wwids: stringArray('Worldwide identifiers (WWIDs); set either these or targetWWNs with lun, not both.'),
  }),
  [`${CORE}FlockerVolumeSource`]: object('Flocker volume mounted by the Flocker agent; exactly one of the fields is set.', {
    datasetName: str('Name of the dataset, stored as metadata; deprecated.'),
    datasetUUID: str('UUID of the dataset: the unique identifier of a Flocker dataset.'),
  }),
  [`${CORE}GitRepoVolumeSource`]: object(
    'Directory populated with a git repository; deprecated: clone into an emptyDir from an init container instead.',
    {
      directory: str('Target directory name, without "..". "." puts the repository in the volume root.'),
      repository: str('Repository URL.'),
      revision: str('Commit hash for the given revision.'),
    },
    { required: ['repository'] },
  ),
  [`${CORE}GlusterfsVolumeSource`]: object(
    'Glusterfs mount for the pod’s lifetime.',
    {
      endpoints: str('Name of the endpoints giving the Glusterfs topology.'),
      path: str('Glusterfs volume path.'),
      readOnly: READ_ONLY,
    },
    { required: ['endpoints', 'path'] },
  ),
  [`${CORE}GlusterfsPersistentVolumeSource`]: object(
    'Glusterfs mount for the pod’s lifetime.',
    {
      endpoints: str('Name of the endpoints giving the Glusterfs topology.'),
      endpointsNamespace: str('Namespace of the endpoints; the claim’s namespace when empty.'),
      path: str('Glusterfs volume path.'),
      readOnly: READ_ONLY,
    },
    { required: ['endpoints', 'path'] },
  ),
  [`${CORE}PhotonPersistentDiskVolumeSource`]: object(
    'Photon Controller persistent disk.',
    {
      fsType: FS_TYPE,
      pdID: str('ID identifying the Photon Controller persistent disk.'),
    },
    { required: ['pdID'] },
  ),
  [`${CORE}PortworxVolumeSource`]: object(
    'Portworx volume.',
    {
      fsType: FS_TYPE,
      readOnly: READ_ONLY,
      volumeID: str('Unique ID of the Portworx volume.'),
    },
    { required: ['volumeID'] },
  ),
  [`${CORE}QuobyteVolumeSource`]: object(
    'Quobyte mount for the pod’s lifetime; it has no ownership management or SELinux relabeling.',
    {
      group: str('Group the volume is accessed as; none when unset.'),
      readOnly: READ_ONLY,
      registry: str('One or more Quobyte registry services, as host:port pairs separated by commas.'),
      tenant: str('Tenant owning the volume in the backend; used with dynamically provisioned volumes.'),
      user: str('User the volume is accessed as; the service account user when unset.'),
      volume: str('Name of an existing Quobyte volume.'),
    },
    { required: ['registry', 'volume'] },
  ),
  [`${CORE}StorageOSVolumeSource`]: object('StorageOS persistent volume.', {
    fsType: FS_TYPE,
    readOnly: READ_ONLY,
    secretRef: core('LocalObjectReference', 'Secret with the StorageOS API credentials; defaults are used when unset.'),
    volumeName: str('Human-readable name of the volume, unique within its namespace.'),
    volumeNamespace: str('StorageOS namespace of the volume; the pod’s namespace when unset, "default" when missing there.'),
  }),
  [`${CORE}StorageOSPersistentVolumeSource`]: object('StorageOS persistent volume.', {
    fsType: FS_TYPE,
    readOnly: READ_ONLY,
    secretRef: core('ObjectReference', 'Secret with the StorageOS API credentials; defaults are used when unset.'),
    volumeName: str('Human-readable name of the volume, unique within its namespace.'),
    volumeNamespace: str('StorageOS namespace of the volume; the pod’s namespace when unset, "default" when missing there.'),
  }),
  [`${CORE}VsphereVirtualDiskVolumeSource`]: object(
    'vSphere volume.',
    {
      fsType: FS_TYPE,
      storagePolicyID: str('ID of the storage policy-based management (SPBM) profile of storagePolicyName.'),
      storagePolicyName: str('Name of the storage policy-based management (SPBM) profile.'),
      volumePath: str('Path identifying the vSphere volume vmdk.'),
    },
    { required: ['volumePath'] },
  ),
};

/** The legacy sources a pod Volume accepts, by field name. */
export const LEGACY_POD_VOLUME_SOURCES: Record<string, Schema> = {
  awsElasticBlockStore: core('AWSElasticBlockStoreVolumeSource', 'AWS EBS disk; deprecated, handled by the ebs.csi.aws.com driver.'),
  azureDisk: core('AzureDiskVolumeSource', 'Azure data disk; deprecated, handled by the disk.csi.azure.com driver.'),
  azureFile: core('AzureFileVolumeSource', 'Azure File Service mount; deprecated, handled by the file.csi.azure.com driver.'),
  cephfs: core('CephFSVolumeSource', 'Ceph filesystem mount; deprecated and no longer supported.'),
  cinder: core('CinderVolumeSource', 'OpenStack Cinder volume; deprecated, handled by the cinder.csi.openstack.org driver.'),
  fc: core('FCVolumeSource', 'Fibre Channel resource attached to the host.'),
  flexVolume: core('FlexVolumeSource', 'Volume provisioned by an exec-based plugin; deprecated.'),
  flocker: core('FlockerVolumeSource', 'Flocker volume; deprecated and no longer supported.'),
  gcePersistentDisk: core('GCEPersistentDiskVolumeSource', 'GCE disk; deprecated, handled by the pd.csi.storage.gke.io driver.'),
  gitRepo: core('GitRepoVolumeSource', 'Git repository at a revision; deprecated.'),
  glusterfs: core('GlusterfsVolumeSource', 'Glusterfs mount; deprecated and no longer supported.'),
  iscsi: core('ISCSIVolumeSource', 'iSCSI disk attached to the host.'),
  photonPersistentDisk: core('PhotonPersistentDiskVolumeSource', 'Photon Controller disk; deprecated and no longer supported.'),
  portworxVolume: core('PortworxVolumeSource', 'Portworx volume; deprecated, handled by the pxd.portworx.com driver.'),
  quobyte: core('QuobyteVolumeSource', 'Quobyte mount; deprecated and no longer supported.'),
  rbd: core('RBDVolumeSource', 'Rados Block Device mount; deprecated and no longer supported.'),
  scaleIO: core('ScaleIOVolumeSource', 'ScaleIO volume; deprecated and no longer supported.'),
  storageos: core('StorageOSVolumeSource', 'StorageOS volume; deprecated and no longer supported.'),
  vsphereVolume: core('VsphereVirtualDiskVolumeSource', 'vSphere disk; deprecated, handled by the csi.vsphere.vmware.com driver.'),
};

/** The legacy sources a PersistentVolumeSpec accepts, by field name. */
export const LEGACY_PERSISTENT_VOLUME_SOURCES: Record<string, Schema> = {
  awsElasticBlockStore: LEGACY_POD_VOLUME_SOURCES.awsElasticBlockStore as Schema,
  azureDisk: LEGACY_POD_VOLUME_SOURCES.azureDisk as Schema,
  azureFile: core('AzureFilePersistentVolumeSource', 'Azure File Service mount; deprecated, handled by the file.csi.azure.com driver.'),
  cephfs: core('CephFSPersistentVolumeSource', 'Ceph filesystem mount; deprecated and no longer supported.'),
  cinder: core('CinderPersistentVolumeSource', 'OpenStack Cinder volume; deprecated, handled by the cinder.csi.openstack.org driver.'),
  fc: LEGACY_POD_VOLUME_SOURCES.fc as Schema,
  flexVolume: core('FlexPersistentVolumeSource', 'Volume provisioned by an exec-based plugin; deprecated.'),
  flocker: LEGACY_POD_VOLUME_SOURCES.flocker as Schema,
  gcePersistentDisk: LEGACY_POD_VOLUME_SOURCES.gcePersistentDisk as Schema,
  glusterfs: core('GlusterfsPersistentVolumeSource', 'Glusterfs mount; deprecated and no longer supported.'),
  iscsi: core('ISCSIPersistentVolumeSource', 'iSCSI disk attached to the host.'),
  photonPersistentDisk: LEGACY_POD_VOLUME_SOURCES.photonPersistentDisk as Schema,
  portworxVolume: LEGACY_POD_VOLUME_SOURCES.portworxVolume as Schema,
  quobyte: LEGACY_POD_VOLUME_SOURCES.quobyte as Schema,
  rbd: core('RBDPersistentVolumeSource', 'Rados Block Device mount; deprecated and no longer supported.'),
  scaleIO: core('ScaleIOPersistentVolumeSource', 'ScaleIO volume; deprecated and no longer supported.'),
  storageos: core('StorageOSPersistentVolumeSource', 'StorageOS volume; deprecated and no longer supported.'),
  vsphereVolume: LEGACY_POD_VOLUME_SOURCES.vsphereVolume as Schema,
};
