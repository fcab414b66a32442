import { type FieldError, fieldError } from '../../api/errors.js';
import { isQualifiedName } from '../../validation/names.js';

/**
 * Resource name checks of pkg/apis/core/validation (validateResourceName, validateContainerResourceName) with
 * pkg/apis/core/helper's lists, shared by the kinds that name resources: LimitRange items, RuntimeClass overhead.
 */

/** helper.IsStandardResourceName's list (hugepages- names are standard too). */
export const STANDARD_RESOURCES: ReadonlySet<string> = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
/** helper.IsIntegerResourceName's standard names: resources counted in whole objects, never fractional. */
export const INTEGER_RESOURCES: ReadonlySet<string> = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

export const isHugePagesResource = (name: string): boolean => name.startsWith('hugepages-');
/** helper.IsNativeResource: no domain, or one under kubernetes.io. */
export const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** IsExtendedResourceName: a domain-prefixed, non-native name that stays a qualified name behind "requests.". */
export const isExtendedResource = (name: string): boolean =>
  !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/** validateResourceName: a qualified name; without a domain, a standard resource. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isHugePagesResource(name)) {
    errs.push(fieldError.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** validateContainerResourceName: also a resource containers can use, or an extended resource. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePagesResource(name))
      errs.push(fieldError.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtendedResource(name)) {
    errs.push(fieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}
