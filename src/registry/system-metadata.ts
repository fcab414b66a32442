import { randomBytes } from 'node:crypto';
import type { FieldError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';

/** System metadata the store fills in or normalises on create and update. */

const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATE_BASE = 58;

/** Metadata only the server sets: a create's body cannot choose them. */
export const SERVER_OWNED_FIELDS = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
  'resourceVersion',
] as const;

/** generateName's suffix: five characters of the alphabet Kubernetes' name generator uses. */
export function generateName(base: string): string {
  const bytes = randomBytes(5);
  let suffix = '';
  for (const b of bytes) suffix += GENERATE_NAME_ALPHABET[b % GENERATE_NAME_ALPHABET.length];
  return base.slice(0, MAX_GENERATE_BASE) + suffix;
}

/** Metadata errors first, then the type's own; the common case has neither. */
export function withTypeErrors(metaErrs: FieldError[], typeErrs: FieldError[]): FieldError[] {
  if (typeErrs.length === 0) return metaErrs;
  if (metaErrs.length === 0) return typeErrs;
  return [...metaErrs, ...typeErrs];
}

const OMITEMPTY_LISTS = ['finalizers', 'ownerReferences', 'managedFields'] as const;
const OMITEMPTY_MAPS = ['labels', 'annotations'] as const;

/** ObjectMeta's list and map fields are all omitempty in Kubernetes: an emptied one disappears, as after a Go round trip. */
export function dropEmptyMetadata(meta: KubeObject['metadata']): void {
  for (const field of OMITEMPTY_LISTS) {
    const value = meta[field];
    if (Array.isArray(value) && value.length === 0) delete meta[field];
  }
  for (const field of OMITEMPTY_MAPS) {
    const value = meta[field];
    if (value !== null && typeof value === 'object' && hasNoKeys(value)) delete meta[field];
  }
}

function hasNoKeys(map: object): boolean {
  for (const key in map) if (Object.hasOwn(map, key)) return false;
  return true;
}

/** Puts back a deletion field as the stored object has it: clients cannot set or clear these through an update. */
export function restore(
  n: KubeObject['metadata'],
  o: KubeObject['metadata'],
  field: 'deletionTimestamp' | 'deletionGracePeriodSeconds',
): void {
  if (o[field] === undefined) delete n[field];
  else n[field] = o[field] as never;
}
