import type { FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { PodValidationOptions } from '../core-v1/types/pod-validation/index.js';
import {
  immutableSelector,
  nonNegative,
  objectAt,
  podOptionsForUpdate,
  validateReplicaCountsStatus,
  validateSelectorAndTemplate,
} from './workload-validation.js';

/** pkg/apis/apps/validation's ReplicaSet rules (ValidateReplicaSet, ValidateReplicaSetUpdate, ValidateReplicaSetStatusUpdate). */

/** ValidateReplicaSetSpec; its empty-selector message names "deployment", as Kubernetes' does. */
function validateReplicaSetSpec(spec: Record<string, unknown>, podOptions: PodValidationOptions = {}): FieldError[] {
  return [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateSelectorAndTemplate(spec, 'deployment', podOptions),
  ];
}

export function validateReplicaSet(obj: KubeObject): FieldError[] {
  return validateReplicaSetSpec(objectAt(obj.spec));
}

/**
 * The ReplicaSet strategy's ValidateUpdate: ValidateReplicaSet and then ValidateReplicaSetUpdate, which validates
 * the spec again (kube-apiserver lists a spec error twice), then the apps/v1 selector immutability.
 */
export function validateReplicaSetUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const oldSpec = objectAt(old.spec);
  const podOptions = podOptionsForUpdate(spec.template, oldSpec.template);
  return [...validateReplicaSetSpec(spec, podOptions), ...validateReplicaSetSpec(spec, podOptions), ...immutableSelector(spec, oldSpec)];
}

export function validateReplicaSetStatusUpdate(next: KubeObject): FieldError[] {
  return validateReplicaCountsStatus(next.status);
}
