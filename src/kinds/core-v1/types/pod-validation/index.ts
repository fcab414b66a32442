import { type FieldError, fieldError } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { validateAnnotations, validateLabels } from '../../../../validation/labels.js';
import { defaultPodSpec } from '../pod-defaults.js';
import {
  annotationsOf,
  validateAppArmorAnnotationsAndFields,
  validatePodSpecificAnnotations,
  validateSeccompAnnotationsAndFields,
} from './pod-annotations.js';
import { validatePodSpecAt } from './pod-spec.js';

/**
 * What the caller knows that changes pod validation (Kubernetes' PodValidationOptions, trimmed to what is used):
 * updates of already-stored objects tolerate what older servers accepted.
 */
export interface PodValidationOptions {
  /** The old object's value is being validated again on update (ratcheting of formats older servers accepted). */
  readonly isUpdate?: boolean;
  /** Tolerate an invalid pod-deletion-cost annotation (the old object already had one). */
  readonly allowInvalidPodDeletionCost?: boolean;
}

/** ValidatePodSpec for a spec embedded in a template (no pod name, host ports may still be defaulted). */
function validatePodSpec(spec: unknown, path: string): FieldError[] {
  return validatePodSpecAt(isObject(spec) ? spec : {}, path, { podName: '', isPod: false });
}

/** What Go validates when no template was sent: the zero-value template after defaulting. */
function absentTemplate(): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  defaultPodSpec(spec);
  return { spec };
}

/**
 * ValidatePodTemplateSpec: a workload's or PodTemplate's template — its labels and annotations, then its pod spec.
 * `path` names the template itself, e.g. "spec.template".
 */
export function validatePodTemplateSpec(template: unknown, path: string, options: PodValidationOptions = {}): FieldError[] {
  if (!isObject(template)) return validatePodTemplateSpec(absentTemplate(), path, options);
  const meta = isObject(template.metadata) ? template.metadata : {};
  const spec = isObject(template.spec) ? template.spec : {};
  const annotations = annotationsOf(meta);
  const errs = [...validateLabels(meta.labels, `${path}.labels`), ...validateAnnotations(meta.annotations, `${path}.annotations`)];
  errs.push(...validatePodSpecificAnnotations(annotations, spec, `${path}.annotations`, options.allowInvalidPodDeletionCost === true));
  errs.push(...validatePodSpec(spec, `${path}.spec`));
  errs.push(...validateSeccompAnnotationsAndFields(annotations, spec, `${path}.spec`));
  errs.push(...validateAppArmorAnnotationsAndFields(annotations, spec, `${path}.spec`));
  if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0) {
    errs.push(fieldError.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
