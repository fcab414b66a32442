import { isObject, type KubeObject } from '../../api/types.js';
import { accessModes, age, joinHostPort } from '../cell-format.js';
import {
  configMapData,
  endpointsSubsets,
  persistentVolumeClaimSpecVolumeMode,
  persistentVolumeClaimSpecVolumeName,
  persistentVolumeClaimStatusAccessModes,
  persistentVolumeClaimStatusCapacity,
  persistentVolumeClaimStatusPhase,
  persistentVolumeSpecAccessModes,
  persistentVolumeSpecCapacity,
  persistentVolumeSpecClaimRef,
  persistentVolumeSpecPersistentVolumeReclaimPolicy,
  persistentVolumeSpecVolumeMode,
  persistentVolumeStatusPhase,
  persistentVolumeStatusReason,
  secretData,
  secretType,
  serviceAccountSecrets,
} from '../column-descriptions.js';
import { get, integer, keyCount, list, text } from '../object-fields.js';
import { column, type Printer } from '../printer.js';
import { AGE_COLUMN, NAME_COLUMN } from './common-columns.js';

const name = (obj: KubeObject): string => obj.metadata.name ?? '';

export const NAMESPACE_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  row: (obj, now) => [name(obj), text(get(obj, 'status', 'phase')), age(obj.metadata.creationTimestamp, now)],
};

export const CONFIG_MAP_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Data', 'string', configMapData), AGE_COLUMN],
  row: (obj, now) => [name(obj), keyCount(get(obj, 'data')) + keyCount(get(obj, 'binaryData')), age(obj.metadata.creationTimestamp, now)],
};

/** The internal Secret merges write-only stringData into data, so both count. */
function secretKeyCount(obj: KubeObject): number {
  const keys = new Set<string>();
  for (const source of [get(obj, 'data'), get(obj, 'stringData')]) {
    if (isObject(source)) for (const key of Object.keys(source)) keys.add(key);
  }
  return keys.size;
}

export const SECRET_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Type', 'string', secretType), column('Data', 'string', secretData), AGE_COLUMN],
  row: (obj, now) => [name(obj), text(get(obj, 'type')), secretKeyCount(obj), age(obj.metadata.creationTimestamp, now)],
};

export const SERVICE_ACCOUNT_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Secrets', 'string', serviceAccountSecrets), AGE_COLUMN],
  row: (obj, now) => [name(obj), list(get(obj, 'secrets')).length, age(obj.metadata.creationTimestamp, now)],
};

/** formatEndpoints: up to three "ip:port" (or bare ip for port-less subsets), then "+ N more...". */
function formatEndpoints(obj: KubeObject): string {
  const subsets = list(get(obj, 'subsets'));
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = list(get(subset, 'addresses')).map((address) => text(get(address, 'ip')));
    const ports = list(get(subset, 'ports'));
    const targets = ports.length === 0 ? [undefined] : ports.map((port) => integer(get(port, 'port')));
    for (const port of targets) {
      count += addresses.length;
      for (const ip of addresses) {
        if (shown.length === max) {
          more = true;
          break;
        }
        shown.push(port === undefined ? ip : joinHostPort(ip, port));
      }
    }
  }
  const joined = shown.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

export const ENDPOINTS_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Endpoints', 'string', endpointsSubsets), AGE_COLUMN],
  row: (obj, now) => [name(obj), formatEndpoints(obj), age(obj.metadata.creationTimestamp, now)],
};

const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** helper.GetPersistentVolume(Claim)Class: the beta annotation wins over spec.storageClassName. */
function storageClass(obj: KubeObject): string {
  const annotation = obj.metadata.annotations?.[STORAGE_CLASS_ANNOTATION];
  return annotation ?? text(get(obj, 'spec', 'storageClassName'));
}

const orUnset = (value: unknown): string => (typeof value === 'string' ? value : '<unset>');

/** Quantity.String() of a stored quantity; an absent quantity is the zero quantity "0". */
const quantity = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '0');

const phaseOrTerminating = (obj: KubeObject): string =>
  typeof obj.metadata.deletionTimestamp === 'string' ? 'Terminating' : text(get(obj, 'status', 'phase'));

export const PERSISTENT_VOLUME_PRINTER: Printer = {
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
      name(obj),
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

export const PERSISTENT_VOLUME_CLAIM_PRINTER: Printer = {
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
      name(obj),
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
