import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { PodValidationOptions } from '../core-v1/types/pod-validation/index.js';
import { goIntOrString, goPointerText } from '../../validation/go-literal.js';
import { goQuote } from '../../util/go-quote.js';
import {
  collisionCountDecremented,
  immutableSelector,
  intAt,
  intOrPercentValue,
  nonNegative,
  notAbove,
  notMoreThan100Percent,
  objectAt,
  podOptionsForUpdate,
  validatePositiveIntOrPercent,
  validateSelectorAndTemplate,
} from './workload-validation.js';

/** pkg/apis/apps/validation's Deployment rules (ValidateDeployment, ValidateDeploymentUpdate, ValidateDeploymentStatusUpdate). */

const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'];

/** ValidateRollingUpdateDeployment. */
function validateRollingUpdate(rollingUpdate: Record<string, unknown>, path: string): FieldError[] {
  const { maxUnavailable, maxSurge } = rollingUpdate;
  const errors = [
    ...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`),
  ];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errors.push(fieldError.invalid(`${path}.maxUnavailable`, goIntOrString(maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
  }
  errors.push(...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`));
  return errors;
}

/** ValidateDeploymentStrategy. */
function validateStrategy(value: unknown): FieldError[] {
  const path = 'spec.strategy';
  const strategy = objectAt(value);
  const type = typeof strategy.type === 'string' ? strategy.type : '';
  const rollingUpdate = strategy.rollingUpdate;
  const hasRollingUpdate = rollingUpdate !== undefined && rollingUpdate !== null;
  if (type === 'Recreate') {
    return hasRollingUpdate
      ? [fieldError.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")]
      : [];
  }
  if (type === 'RollingUpdate') {
    if (!hasRollingUpdate) return [fieldError.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
    return validateRollingUpdate(objectAt(rollingUpdate), `${path}.rollingUpdate`);
  }
  const shown = `apps.DeploymentStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointerText('apps.RollingUpdateDeployment', rollingUpdate)}}`;
  return [fieldError.notSupported(path, new GoLiteral(shown), STRATEGY_TYPES)];
}

/** ValidateDeploymentSpec. */
function validateDeploymentSpec(spec: Record<string, unknown>, podOptions: PodValidationOptions = {}): FieldError[] {
  const errors = [...nonNegative(spec.replicas, 'spec.replicas'), ...validateSelectorAndTemplate(spec, 'deployment', podOptions)];
  errors.push(...validateStrategy(spec.strategy));
  errors.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === 'number') {
    errors.push(...nonNegative(deadline, 'spec.progressDeadlineSeconds'));
    if (deadline <= intAt(spec, 'minReadySeconds')) {
      errors.push(fieldError.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
    }
  }
  return errors;
}

export function validateDeployment(obj: KubeObject): FieldError[] {
  return validateDeploymentSpec(objectAt(obj.spec));
}

/** ValidateDeploymentUpdate, plus the selector immutability the apps/v1 strategy adds. */
export function validateDeploymentUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const oldSpec = objectAt(old.spec);
  return [...validateDeploymentSpec(spec, podOptionsForUpdate(spec.template, oldSpec.template)), ...immutableSelector(spec, oldSpec)];
}

/** ValidateDeploymentStatus. */
function validateDeploymentStatus(status: Record<string, unknown>): FieldError[] {
  const path = 'status';
  const errors: FieldError[] = [];
  for (const field of [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
    'collisionCount',
  ]) {
    errors.push(...nonNegative(status[field], `${path}.${field}`));
  }
  const aboveReplicas = 'cannot be greater than status.replicas';
  errors.push(...notAbove(status, 'updatedReplicas', 'replicas', path, aboveReplicas));
  errors.push(...notAbove(status, 'readyReplicas', 'replicas', path, aboveReplicas));
  errors.push(...notAbove(status, 'availableReplicas', 'replicas', path, aboveReplicas));
  errors.push(...notAbove(status, 'availableReplicas', 'readyReplicas', path, 'cannot be greater than readyReplicas'));
  return errors;
}

/** ValidateDeploymentStatusUpdate. */
export function validateDeploymentStatusUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const status = objectAt(next.status);
  return [...validateDeploymentStatus(status), ...collisionCountDecremented(status, objectAt(old.status))];
}
