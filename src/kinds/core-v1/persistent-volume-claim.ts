import { accessModes, age } from '../../tables/cell-format.js';
import {
  persistentVolumeClaimSpecVolumeMode,
  persistentVolumeClaimSpecVolumeName,
  persistentVolumeClaimStatusAccessModes,
  persistentVolumeClaimStatusCapacity,
  persistentVolumeClaimStatusPhase,
} from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { specOf } from './types/kind-defaults.js';
import { orUnset, phaseOrTerminating, quantity, storageClass } from './types/storage-printing.js';

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
  },
  printer: PERSISTENT_VOLUME_CLAIM_PRINTER,
};
