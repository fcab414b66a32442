import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { goStringMap } from '../../validation/go-literal.js';
import {
  alwaysRestartingTemplate,
  nonNegative,
  objectAt,
  podOptionsForUpdate,
  templateLabels,
  validateReplicaCountsStatus,
} from '../apps-v1/workload-validation.js';
import { type PodValidationOptions, validatePodTemplateSpec } from './types/pod-validation/index.js';

/** pkg/apis/core/validation's ReplicationController rules: a label-map selector the template's labels must carry. */

type Obj = Record<string, unknown>;

/** ValidatePodTemplateSpecForRC: a set selector is a plain map, every pair of which the template must carry. */
function validateTemplateForRC(template: unknown, selector: Obj, podOptions: PodValidationOptions): FieldError[] {
  const path = 'spec.template';
  if (template === undefined || template === null) return [fieldError.required(path)];
  const errors: FieldError[] = [];
  const labels = objectAt(templateLabels(template));
  const pairs = Object.entries(selector);
  if (pairs.length > 0 && !pairs.every(([key, value]) => labels[key] === value)) {
    errors.push(
      fieldError.invalid(`${path}.metadata.labels`, goStringMap(templateLabels(template)), '`selector` does not match template `labels`'),
    );
  }
  errors.push(...validatePodTemplateSpec(objectAt(template), path, podOptions));
  errors.push(...alwaysRestartingTemplate(template, path, 'ReplicationController'));
  return errors;
}

/** ValidateReplicationControllerSpec. */
function validateSpec(spec: Obj, podOptions: PodValidationOptions = {}): FieldError[] {
  const selector = isObject(spec.selector) ? spec.selector : {};
  const errors = nonNegative(spec.minReadySeconds, 'spec.minReadySeconds');
  if (Object.keys(selector).length === 0) errors.push(fieldError.required('spec.selector'));
  errors.push(...nonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...validateTemplateForRC(spec.template, selector, podOptions));
  return errors;
}

export function validateReplicationController(obj: KubeObject): FieldError[] {
  return validateSpec(objectAt(obj.spec));
}

/**
 * The RC strategy's ValidateUpdate runs ValidateReplicationController and then ValidateReplicationControllerUpdate,
 * which validates the spec again: kube-apiserver lists a spec error twice. The selector stays mutable.
 */
export function validateReplicationControllerUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const podOptions = podOptionsForUpdate(spec.template, objectAt(old.spec).template);
  return [...validateSpec(spec, podOptions), ...validateSpec(spec, podOptions)];
}

/** ValidateReplicationControllerStatusUpdate. */
export function validateReplicationControllerStatusUpdate(next: KubeObject): FieldError[] {
  return validateReplicaCountsStatus(next.status);
}
