import type { KubeObject } from '../../../api/types.js';
import { get, text } from '../../../tables/object-fields.js';

/** Cells the PersistentVolume and PersistentVolumeClaim printers share. */

const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** helper.GetPersistentVolume(Claim)Class: the beta annotation wins over spec.storageClassName. */
export function storageClass(obj: KubeObject): string {
  const annotation = obj.metadata.annotations?.[STORAGE_CLASS_ANNOTATION];
  return annotation ?? text(get(obj, 'spec', 'storageClassName'));
}

export const orUnset = (value: unknown): string => (typeof value === 'string' ? value : '<unset>');

/** Quantity.String() of a stored quantity; an absent quantity is the zero quantity "0". */
export const quantity = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '0');

export const phaseOrTerminating = (obj: KubeObject): string =>
  typeof obj.metadata.deletionTimestamp === 'string' ? 'Terminating' : text(get(obj, 'status', 'phase'));
