import { type FieldError, fieldError } from '../../api/errors.js';
import { FINALIZER_KUBERNETES } from '../../api/finalizers.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { isQualifiedName } from '../../validation/names.js';
import { namespaceDeletionFinalizers } from '../delete-policy.js';
import type { Strategy } from '../strategy.js';
import { STANDARD_FINALIZERS } from '../validation/object-meta.js';
import { genericStrategy } from './generic.js';

const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

function specOf(obj: KubeObject): Record<string, unknown> {
  if (!isObject(obj.spec)) obj.spec = {};
  return obj.spec as Record<string, unknown>;
}

function specFinalizers(obj: KubeObject): string[] {
  const finalizers = isObject(obj.spec) ? obj.spec.finalizers : undefined;
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}

/**
 * R5.2: spec finalizers are qualified names, and unqualified ones must be standard. Kubernetes reports them at
 * `spec.finalizers` on create and at `spec.finalizers[i]` on /finalize; `indexed` picks the form.
 */
function validateSpecFinalizers(obj: KubeObject, indexed: boolean): FieldError[] {
  const errs: FieldError[] = [];
  specFinalizers(obj).forEach((f, i) => {
    const field = indexed ? `spec.finalizers[${i}]` : 'spec.finalizers';
    for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(field, f, msg));
    if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      errs.push(fieldError.invalid(field, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/** The namespace registry's rules (R5.1–R5.7): the `kubernetes` spec finalizer, Terminating, and its own DELETE. */
export function namespaceStrategy(info: ResourceInfo): Strategy {
  return genericStrategy(info, {
    returnDeletedObject: true,
    initialStatus: () => ({ phase: 'Active' }),
    defaults: (obj) => {
      obj.metadata.labels = { ...obj.metadata.labels, [NAMESPACE_NAME_LABEL]: obj.metadata.name ?? '' };
    },
    prepareForCreate: (obj) => {
      const finalizers = specFinalizers(obj);
      if (!finalizers.includes(FINALIZER_KUBERNETES)) finalizers.push(FINALIZER_KUBERNETES);
      specOf(obj).finalizers = finalizers;
    },
    // R5.3: spec.finalizers change only through /finalize.
    prepareForUpdate: (next, old) => {
      const finalizers = isObject(old.spec) ? old.spec.finalizers : undefined;
      if (finalizers === undefined) delete specOf(next).finalizers;
      else specOf(next).finalizers = finalizers;
    },
    validate: (obj) => validateSpecFinalizers(obj, false),
    // Plain updates keep the stored spec.finalizers (R5.3), so in practice this checks /finalize.
    validateUpdate: (next) => validateSpecFinalizers(next, true),
    // R5.5: Terminating, and a namespace carries no deletionGracePeriodSeconds.
    markDeleting: (obj) => {
      obj.status = { ...(isObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
      delete obj.metadata.deletionGracePeriodSeconds;
    },
    deletionFinalizers: namespaceDeletionFinalizers,
    readyToRemove: (obj) => specFinalizers(obj).length === 0,
  });
}
