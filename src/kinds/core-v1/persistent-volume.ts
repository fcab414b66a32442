import { isObject } from '../../api/types.js';
import { accessModes, age } from '../../tables/cell-format.js';
import {
  persistentVolumeSpecAccessModes,
  persistentVolumeSpecCapacity,
  persistentVolumeSpecClaimRef,
  persistentVolumeSpecPersistentVolumeReclaimPolicy,
  persistentVolumeSpecVolumeMode,
  persistentVolumeStatusPhase,
  persistentVolumeStatusReason,
} from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { defaultPersistentVolume } from './types/kind-defaults.js';
import { orUnset, phaseOrTerminating, quantity, storageClass } from './types/storage-printing.js';

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
  },
  printer: PERSISTENT_VOLUME_PRINTER,
};
