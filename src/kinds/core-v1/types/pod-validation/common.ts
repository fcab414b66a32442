import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isInt } from '../../../../api/json-fields.js';
import { isObject } from '../../../../api/types.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../../../validation/names.js';

/**
 * Small checks pkg/apis/core/validation repeats across the pod spec, over decoded JSON. Values may be of any
 * type here (decoding refuses wrong types, but validation must never throw).
 */

export type Obj = Record<string, unknown>;

/** The object items of a list field, each with its index in the list (non-objects are skipped, not renumbered). */
export function indexed(value: unknown): [Obj, number][] {
  const out: [Obj, number][] = [];
  if (!Array.isArray(value)) return out;
  value.forEach((item, i) => {
    if (isObject(item)) out.push([item, i]);
  });
  return out;
}

export const listLength = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/** validation.InclusiveRangeError. */
export const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

export const MAX_INT32 = 2147483647;

/** ValidateDNS1123Label. */
export const dnsLabel = (value: string, path: string): FieldError[] =>
  isDns1123Label(value).map((msg) => fieldError.invalid(path, value, msg));

/** ValidateDNS1123Subdomain, also NameIsDNSSubdomain as used for service account, node and class names. */
export const dnsSubdomain = (value: string, path: string): FieldError[] =>
  isDns1123Subdomain(value).map((msg) => fieldError.invalid(path, value, msg));

/** ValidateQualifiedName and metav1validation.ValidateLabelName (same rules and messages). */
export const qualifiedName = (value: string, path: string): FieldError[] =>
  isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));

/** IsValidUserID / IsValidGroupID. */
export function validId(path: string, value: unknown): FieldError[] {
  if (!isInt(value) || (value >= 0 && value <= MAX_INT32)) return [];
  return [fieldError.invalid(path, value, inclusiveRange(0, MAX_INT32))];
}

/** validatePathNoBacksteps: no ".." element once backslashes count as separators too (filepath.ToSlash on the server's OS is a no-op on Linux). */
export function pathNoBacksteps(target: string, path: string): FieldError[] {
  return target.split('/').includes('..') ? [fieldError.invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative and without backsteps. */
export function localDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldError.invalid(path, target, 'must be a relative path'));
  errs.push(...pathNoBacksteps(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: also refuses names starting with ".." that are not a backstep ("..data"). */
export function localNonReservedPath(target: string, path: string): FieldError[] {
  const errs = localDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(fieldError.invalid(path, target, "must not start with '..'"));
  return errs;
}

/** A required enum string: Required when empty, NotSupported when unknown (validateRestartPolicy and friends). */
export function requiredEnum(value: unknown, path: string, supported: readonly string[]): FieldError[] {
  if (value === undefined || value === '') return [fieldError.required(path)];
  return typeof value === 'string' && supported.includes(value) ? [] : [fieldError.notSupported(path, value, supported)];
}
