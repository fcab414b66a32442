import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { isQualifiedName } from '../../validation/names.js';

/** Lease validation as pkg/apis/coordination/validation does it (ValidateLeaseSpec, on create and update alike). */

const LEASE_STRATEGIES = ['OldestEmulationVersion'];

/**
 * ValidateCoordinatedLeaseStrategy: a bare name must be one Kubernetes defines, a prefixed one a qualified name.
 * Kubernetes appends "strategy" to the path it is given, so the field reads spec.strategy.strategy.
 */
function validateStrategy(strategy: string, path: string): FieldError[] {
  const field = `${path}.strategy`;
  if (!strategy.includes('/'))
    return LEASE_STRATEGIES.includes(strategy) ? [] : [fieldError.notSupported(field, strategy, LEASE_STRATEGIES)];
  return isQualifiedName(strategy).map((msg) => fieldError.invalid(field, strategy, msg));
}

export function validateLease(obj: KubeObject): FieldError[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldError.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errs.push(fieldError.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  const strategy = typeof spec.strategy === 'string' ? spec.strategy : undefined;
  if (strategy !== undefined) errs.push(...validateStrategy(strategy, 'spec.strategy'));
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && (strategy === undefined || strategy === '')) {
    errs.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}
