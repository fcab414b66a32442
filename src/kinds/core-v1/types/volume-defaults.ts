import { isObject } from '../../../api/types.js';

/**
 * API defaulting of volume sources as kube-apiserver 1.32 applies it (pkg/apis/core/v1/defaults.go and the
 * `+default` markers of k8s.io/api/core/v1), for pod volumes and persistent volume sources alike.
 */

type Obj = Record<string, unknown>;

/** Files of secret, configMap, downwardAPI and projected volumes default to mode 0644. */
const DEFAULT_FILE_MODE = 0o644;
/** Projected service account tokens default to one hour. */
const DEFAULT_TOKEN_SECONDS = 3600;

/** Fields a legacy plugin defaults when empty (declarative defaults of k8s.io/api). */
const SOURCE_DEFAULTS: Readonly<Record<string, Readonly<Obj>>> = {
  rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  iscsi: { iscsiInterface: 'default' },
  scaleIO: { storageMode: 'ThinProvisioned', fsType: 'xfs' },
  azureDisk: { cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' },
};

function fill(source: Obj, defaults: Readonly<Obj>): void {
  for (const [field, value] of Object.entries(defaults)) {
    // Go's non-pointer strings are defaulted when empty, pointers when absent; "" never survives either way.
    if (source[field] === undefined || source[field] === '') source[field] = value;
  }
}

/** ObjectFieldSelector.apiVersion defaults to "v1" wherever a field reference appears. */
export function defaultFieldRef(holder: unknown): void {
  if (isObject(holder) && isObject(holder.fieldRef)) holder.fieldRef.apiVersion ??= 'v1';
}

function defaultDownwardItems(items: unknown): void {
  if (Array.isArray(items)) for (const item of items) defaultFieldRef(item);
}

/** Defaults shared by a pod Volume and a PersistentVolumeSpec: the sources both may hold. */
export function defaultVolumeSources(holder: Obj): void {
  for (const [field, defaults] of Object.entries(SOURCE_DEFAULTS)) {
    const source = holder[field];
    if (isObject(source)) fill(source, defaults);
  }
  if (isObject(holder.hostPath)) holder.hostPath.type ??= '';
}

const POD_ONLY_SOURCES = [
  'configMap',
  'secret',
  'downwardAPI',
  'projected',
  'emptyDir',
  'persistentVolumeClaim',
  'ephemeral',
  'image',
  'csi',
  'gitRepo',
];
const SHARED_SOURCES = [
  'hostPath',
  'nfs',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

/** A pod volume: a volume naming no source is an emptyDir; file modes and token lifetimes default. */
export function defaultPodVolume(volume: Obj): void {
  if (![...POD_ONLY_SOURCES, ...SHARED_SOURCES].some((source) => volume[source] !== undefined && volume[source] !== null)) {
    volume.emptyDir = {};
  }
  defaultVolumeSources(volume);
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const value = volume[source];
    if (isObject(value)) value.defaultMode ??= DEFAULT_FILE_MODE;
  }
  if (isObject(volume.downwardAPI)) defaultDownwardItems(volume.downwardAPI.items);
  if (isObject(volume.projected) && Array.isArray(volume.projected.sources)) {
    for (const projection of volume.projected.sources) {
      if (!isObject(projection)) continue;
      if (isObject(projection.serviceAccountToken)) projection.serviceAccountToken.expirationSeconds ??= DEFAULT_TOKEN_SECONDS;
      if (isObject(projection.downwardAPI)) defaultDownwardItems(projection.downwardAPI.items);
    }
  }
}
