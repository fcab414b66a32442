import { isDeepStrictEqual } from 'node:util';
import { type FieldError, fieldError } from '../../api/errors.js';
import { isDns1123Subdomain } from '../../validation/names.js';
import { quantityValue } from '../../validation/quantity.js';

/**
 * The checks PersistentVolume and PersistentVolumeClaim specs share in pkg/apis/core/validation: access modes
 * (supportedAccessModes and the ReadWriteOncePod exclusivity), volume modes, class names and basic quantities.
 */

/** sets.List order: Kubernetes lists supported values sorted. */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** The entries of an access mode list, refusing unknown ones and ReadWriteOncePod mixed with another mode. */
export function validateAccessModeList(modes: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let onePod = false;
  let other = false;
  for (const mode of Array.isArray(modes) ? modes : []) {
    const known = typeof mode === 'string' && ACCESS_MODES.includes(mode);
    if (!known) errs.push(fieldError.notSupported(path, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') onePod = true;
    else if (known) other = true;
  }
  if (onePod && other) errs.push(fieldError.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

export function validateVolumeMode(mode: unknown, path: string): FieldError[] {
  if (!present(mode)) return [];
  return typeof mode === 'string' && VOLUME_MODES.includes(mode) ? [] : [fieldError.notSupported(path, mode, VOLUME_MODES)];
}

/** ValidateClassName: a DNS-1123 subdomain, checked only when non-empty (empty means "no class"). */
export function validateClassName(name: unknown, path: string): FieldError[] {
  if (typeof name !== 'string' || name === '') return [];
  return isDns1123Subdomain(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** validateBasicResource: Go prints the quantity's Value(), the integer rounded up, not the text sent. */
export function validateBasicResource(quantity: unknown, path: string): FieldError[] {
  const value = Math.ceil(quantityValue(quantity));
  return value < 0 ? [fieldError.invalid(path, value, 'must be a valid resource quantity')] : [];
}

/** ValidateImmutableField at Kubernetes' path for it (PV and PVC updates say "volumeMode", without "spec."). */
export function validateImmutable(next: unknown, old: unknown, path: string): FieldError[] {
  return isDeepStrictEqual(next ?? null, old ?? null) ? [] : [fieldError.invalid(path, next ?? null, 'field is immutable')];
}
