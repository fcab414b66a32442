import type { Definitions, Schema } from '../../../openapi/schema.js';
import { LEGACY_POD_VOLUME_SOURCES } from './legacy-volumes-definitions.js';
import { ATOMIC, bool, CORE, core, coreArray, int32, int64, meta, object, quantity, str, stringMap } from '../../../openapi/builders/shorthand.js';

/** core/v1 Volume and its current volume sources (the in-tree legacy ones are in core-v1-legacy-volumes.ts). */

const DEFAULT_MODE = int32('Mode bits for created files, as an octal (0000-0777) or decimal (0-511) value. Defaults to 0644.');
const ITEMS = coreArray(
  'KeyToPath',
  'Keys to project and their paths; unlisted keys are not projected when set. Referencing a missing key is an error unless optional.',
  ATOMIC,
);

const keyedProjection = (source: string): Schema =>
  object(`Projects the keys of a ${source} into a volume.`, {
    items: ITEMS,
    name: str('Name of the referent.'),
    optional: bool(`Whether the ${source} or its keys must be defined.`),
  });

export const CORE_V1_VOLUME_DEFINITIONS: Definitions = {
  [`${CORE}Volume`]: object(
    'Named volume in a pod that any container of the pod may mount.',
    {
      ...LEGACY_POD_VOLUME_SOURCES,
      configMap: core('ConfigMapVolumeSource', 'ConfigMap that populates this volume.'),
      csi: core('CSIVolumeSource', 'Ephemeral storage handled by a CSI driver.'),
      downwardAPI: core('DownwardAPIVolumeSource', 'Pod information exposed as files.'),
      emptyDir: core('EmptyDirVolumeSource', 'Temporary directory sharing the pod’s lifetime.'),
      ephemeral: core('EphemeralVolumeSource', 'Volume provisioned by a storage driver for the pod’s lifetime.'),
      hostPath: core('HostPathVolumeSource', 'Pre-existing file or directory on the host. Use with care.'),
      image: core('ImageVolumeSource', 'OCI object (image or artifact) mounted read-only.'),
      name: str('Name of the volume, a DNS label unique within the pod.'),
      nfs: core('NFSVolumeSource', 'NFS mount on the host that shares the pod’s lifetime.'),
      persistentVolumeClaim: core('PersistentVolumeClaimVolumeSource', 'Reference to a PersistentVolumeClaim in the same namespace.'),
      projected: core('ProjectedVolumeSource', 'Items for all-in-one resources: secrets, configmaps, downward API.'),
      secret: core('SecretVolumeSource', 'Secret that populates this volume.'),
    },
    { required: ['name'] },
  ),
  [`${CORE}ConfigMapVolumeSource`]: object('Adapts a ConfigMap into a volume.', {
    defaultMode: DEFAULT_MODE,
    items: ITEMS,
    name: str('Name of the referent.'),
    optional: bool('Whether the ConfigMap or its keys must be defined.'),
  }),
  [`${CORE}SecretVolumeSource`]: object('Adapts a Secret into a volume.', {
    defaultMode: DEFAULT_MODE,
    items: ITEMS,
    optional: bool('Whether the Secret or its keys must be defined.'),
    secretName: str('Name of the secret in the pod’s namespace.'),
  }),
  [`${CORE}KeyToPath`]: object(
    'Maps a string key to a path within a volume.',
    {
      key: str('The key to project.'),
      mode: int32('Mode bits for this file; defaults to the volume default mode.'),
      path: str('Relative path of the file; must not contain ".." or start with "..".'),
    },
    { required: ['key', 'path'] },
  ),
  [`${CORE}EmptyDirVolumeSource`]: object('Temporary directory that shares the pod’s lifetime.', {
    medium: str('Storage medium backing the directory: "" (node default) or "Memory".'),
    sizeLimit: quantity('Total amount of local storage the volume may use.'),
  }),
  [`${CORE}PersistentVolumeClaimVolumeSource`]: object(
    'References a PersistentVolumeClaim in the same namespace.',
    {
      claimName: str('Name of the PersistentVolumeClaim.'),
      readOnly: bool('Force the ReadOnly setting in volume mounts. Defaults to false.'),
    },
    { required: ['claimName'] },
  ),
  [`${CORE}HostPathVolumeSource`]: object(
    'Host path mapped into a pod; cannot be limited in size.',
    {
      path: str('Path of the directory on the host; a symlink is followed.'),
      type: str('Type of the host path volume. Defaults to "".', {
        enum: ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'],
      }),
    },
    { required: ['path'] },
  ),
  [`${CORE}NFSVolumeSource`]: object(
    'NFS mount that lasts the lifetime of a pod.',
    {
      path: str('Path exported by the NFS server.'),
      readOnly: bool('Force the export to be mounted read-only. Defaults to false.'),
      server: str('Hostname or IP address of the NFS server.'),
    },
    { required: ['server', 'path'] },
  ),
  [`${CORE}ImageVolumeSource`]: object('OCI object (container image or artifact) mounted as a volume.', {
    pullPolicy: str('Policy for pulling the OCI object: Always, Never or IfNotPresent.', {
      enum: ['Always', 'IfNotPresent', 'Never'],
    }),
    reference: str('Image or artifact reference, as for container images.'),
  }),
  [`${CORE}CSIVolumeSource`]: object(
    'Volume provided by an external CSI driver for the pod’s lifetime.',
    {
      driver: str('Name of the CSI driver handling this volume.'),
      fsType: str('Filesystem type to mount, e.g. "ext4"; passed to the driver.'),
      nodePublishSecretRef: core(
        'LocalObjectReference',
        'Secret with sensitive information passed to the driver’s NodePublishVolume calls.',
      ),
      readOnly: bool('Read-only configuration for the volume. Defaults to false.'),
      volumeAttributes: stringMap('Driver-specific properties passed to the driver.'),
    },
    { required: ['driver'] },
  ),
  [`${CORE}EphemeralVolumeSource`]: object('Volume handled by a normal storage driver, created per pod.', {
    volumeClaimTemplate: core(
      'PersistentVolumeClaimTemplate',
      'Template for the PVC created for the pod and owned by it; the PVC is named <pod name>-<volume name>.',
    ),
  }),
  [`${CORE}PersistentVolumeClaimTemplate`]: object(
    'Template used to create PersistentVolumeClaims for ephemeral volumes.',
    {
      metadata: meta('ObjectMeta', 'Labels and annotations copied into the created PVC.'),
      spec: core('PersistentVolumeClaimSpec', 'Specification of the PVC, copied unchanged.'),
    },
    { required: ['spec'] },
  ),
  [`${CORE}ProjectedVolumeSource`]: object('Projection of several sources into one directory.', {
    defaultMode: DEFAULT_MODE,
    sources: coreArray('VolumeProjection', 'The projected sources.', ATOMIC),
  }),
  [`${CORE}VolumeProjection`]: object('One source projected together with others; exactly one field is set.', {
    clusterTrustBundle: core('ClusterTrustBundleProjection', 'ClusterTrustBundle objects written to a file.'),
    configMap: core('ConfigMapProjection', 'ConfigMap data to project.'),
    downwardAPI: core('DownwardAPIProjection', 'Downward API data to project.'),
    secret: core('SecretProjection', 'Secret data to project.'),
    serviceAccountToken: core('ServiceAccountTokenProjection', 'Service account token to project.'),
  }),
  [`${CORE}ConfigMapProjection`]: keyedProjection('ConfigMap'),
  [`${CORE}SecretProjection`]: keyedProjection('Secret'),
  [`${CORE}DownwardAPIProjection`]: object('Downward API information projected into a volume.', {
    items: coreArray('DownwardAPIVolumeFile', 'Files of the projection.', ATOMIC),
  }),
  [`${CORE}ServiceAccountTokenProjection`]: object(
    'Projected service account token.',
    {
      audience: str('Intended audience of the token; defaults to the API server identifier.'),
      expirationSeconds: int64('Requested validity of the token in seconds. Defaults to 1 hour.'),
      path: str('Path of the token file relative to the mount point.'),
    },
    { required: ['path'] },
  ),
  [`${CORE}ClusterTrustBundleProjection`]: object(
    'Projects ClusterTrustBundle objects into the pod filesystem.',
    {
      labelSelector: meta('LabelSelector', 'Selects bundles by label; exclusive with name.'),
      name: str('Selects a single bundle by name; exclusive with signerName and labelSelector.'),
      optional: bool('Whether a missing bundle is tolerated.'),
      path: str('Path of the file relative to the volume root.'),
      signerName: str('Selects bundles of this signer.'),
    },
    { required: ['path'] },
  ),
  [`${CORE}DownwardAPIVolumeSource`]: object('Downward API information exposed as files.', {
    defaultMode: DEFAULT_MODE,
    items: coreArray('DownwardAPIVolumeFile', 'Files of the volume.', ATOMIC),
  }),
  [`${CORE}DownwardAPIVolumeFile`]: object(
    'A file containing pod field information.',
    {
      fieldRef: core('ObjectFieldSelector', 'Pod field to expose: metadata annotations, labels, name, namespace or uid.'),
      mode: int32('Mode bits for this file.'),
      path: str('Relative path of the file to create.'),
      resourceFieldRef: core('ResourceFieldSelector', 'Container resource (limits or requests) to expose.'),
    },
    { required: ['path'] },
  ),
};
