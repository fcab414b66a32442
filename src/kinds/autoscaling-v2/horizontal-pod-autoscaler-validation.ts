import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { isDns1123Label, isValidPathSegmentName } from '../../validation/names.js';
import { quantityValue } from '../../validation/quantity.js';
import { validateContainerResourceName } from '../core-v1/resource-names.js';
import { quantityLiteral } from './quantity-literal.js';
import { text } from '../../api/json-fields.js';

/**
 * HorizontalPodAutoscaler validation of pkg/apis/autoscaling/validation (ValidateHorizontalPodAutoscaler, its Update
 * and StatusUpdate) for Kubernetes 1.32, where the HPAScaleToZero gate is off: minReplicas must be at least 1 unless
 * the stored object already had 0.
 */

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const TARGET_TYPES = ['Utilization', 'Value', 'AverageValue'];
/** MetricSpec's source fields in the order Kubernetes looks at them, with the type naming each. */
const SOURCES: ReadonlyArray<readonly [field: string, type: string]> = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
];

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});
const int = (value: unknown): number => (typeof value === 'number' ? value : 0);
const present = (value: unknown): boolean => value !== undefined && value !== null;

/** ValidateCrossVersionObjectReference. */
function validateCrossVersionObjectReference(ref: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = text(record(ref)[key]);
    if (value === '') errs.push(fieldError.required(`${path}.${key}`));
    else for (const msg of isValidPathSegmentName(value)) errs.push(fieldError.invalid(`${path}.${key}`, value, msg));
  }
  return errs;
}

/** validateMetricIdentifier. */
function validateMetricIdentifier(id: unknown, path: string): FieldError[] {
  const name = text(record(id).name);
  if (name === '') return [fieldError.required(`${path}.name`, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => fieldError.invalid(`${path}.name`, name, msg));
}

/** validateMetricTarget. */
function validateMetricTarget(target: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(target.type);
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'must specify a metric target type'));
  if (!TARGET_TYPES.includes(type))
    errs.push(fieldError.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue']) {
    if (present(target[key]) && quantityValue(target[key]) <= 0) {
      errs.push(fieldError.invalid(`${path}.${key}`, quantityLiteral(target[key]), 'must be positive'));
    }
  }
  if (present(target.averageUtilization) && int(target.averageUtilization) < 1) {
    errs.push(fieldError.invalid(`${path}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
  }
  return errs;
}

/** The Resource and ContainerResource sources' target: a utilization or an average value, not both. */
function validateResourceTarget(target: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateMetricTarget(target, path);
  const utilization = present(target.averageUtilization);
  const average = present(target.averageValue);
  if (!utilization && !average) {
    errs.push(fieldError.required(`${path}.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (utilization && average) {
    errs.push(fieldError.forbidden(`${path}.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

/** validateObjectSource, validateExternalSource, validatePodsSource, validateResourceSource, validateContainerResourceSource. */
function validateSource(field: string, src: Record<string, unknown>, path: string): FieldError[] {
  const target = record(src.target);
  const targetPath = `${path}.target`;
  const errs: FieldError[] = [];
  switch (field) {
    case 'object':
      errs.push(...validateCrossVersionObjectReference(src.describedObject, `${path}.describedObject`));
      errs.push(...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(target, targetPath));
      if (!present(target.value) && !present(target.averageValue)) {
        errs.push(fieldError.required(`${targetPath}.averageValue`, 'must set either a target value or averageValue'));
      }
      break;
    case 'external':
      errs.push(...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(target, targetPath));
      if (!present(target.value) && !present(target.averageValue)) {
        errs.push(fieldError.required(`${targetPath}.averageValue`, 'must set either a target value for metric or a per-pod target'));
      }
      if (present(target.value) && present(target.averageValue)) {
        errs.push(fieldError.forbidden(`${targetPath}.value`, 'may not set both a target value for metric and a per-pod target'));
      }
      break;
    case 'pods':
      errs.push(...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(target, targetPath));
      if (!present(target.averageValue)) {
        errs.push(fieldError.required(`${targetPath}.averageValue`, 'must specify a positive target averageValue'));
      }
      break;
    case 'resource':
      if (text(src.name) === '') errs.push(fieldError.required(`${path}.name`, 'must specify a resource name'));
      errs.push(...validateResourceTarget(target, targetPath));
      break;
    default: {
      const name = text(src.name);
      if (name === '') errs.push(fieldError.required(`${path}.name`, 'must specify a resource name'));
      else errs.push(...validateContainerResourceName(name, `${path}.name`));
      const container = text(src.container);
      if (container === '') errs.push(fieldError.required(`${path}.container`, 'must specify a container'));
      else errs.push(...isDns1123Label(container).map((msg) => fieldError.invalid(`${path}.container`, container, msg)));
      errs.push(...validateResourceTarget(target, targetPath));
    }
  }
  return errs;
}

/** validateMetricSpec: a known type, its own source populated, and no other. */
function validateMetricSpec(spec: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(spec.type);
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(fieldError.notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  const populated = SOURCES.filter(([field]) => present(spec[field])).map(([field]) => field);
  const first = populated[0];
  if (first !== undefined) errs.push(...validateSource(first, record(spec[first]), `${path}.${first}`));
  const expected = SOURCES.find(([, sourceType]) => sourceType === type)?.[0];
  if (expected === undefined) {
    // Kubernetes reports an unknown type a second time from its switch's default branch.
    errs.push(fieldError.notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  } else if (!present(spec[expected])) {
    errs.push(fieldError.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  }
  if (populated.length !== 1) {
    for (const field of populated) {
      if (field !== expected) errs.push(fieldError.forbidden(`${path}.${field}`, 'must populate the given metric source only'));
    }
  }
  return errs;
}

/** validateMetrics: each metric, and scaling to zero only with an Object or External metric. */
function validateMetrics(metrics: unknown, path: string, minReplicas: unknown): FieldError[] {
  const list = Array.isArray(metrics) ? metrics : [];
  const errs = list.flatMap((metric, i) => validateMetricSpec(record(metric), `${path}[${i}]`));
  const types = list.map((metric) => text(record(metric).type));
  if (minReplicas === 0 && !types.includes('Object') && !types.includes('External')) {
    errs.push(fieldError.forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

/** validateScalingRules with validateScalingPolicy. */
function validateScalingRules(rules: unknown, path: string): FieldError[] {
  if (!isObject(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) {
    errs.push(fieldError.invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  }
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(
      fieldError.invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`),
    );
  }
  if (typeof rules.selectPolicy === 'string' && !SELECT_POLICIES.includes(rules.selectPolicy)) {
    errs.push(fieldError.notSupported(`${path}.selectPolicy`, rules.selectPolicy, SELECT_POLICIES));
  }
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) errs.push(fieldError.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((raw, i) => {
    const policy = record(raw);
    const at = `${path}.policies[${i}]`;
    const type = text(policy.type);
    if (!POLICY_TYPES.includes(type)) errs.push(fieldError.notSupported(`${at}.type`, type, POLICY_TYPES));
    if (int(policy.value) <= 0) errs.push(fieldError.invalid(`${at}.value`, int(policy.value), 'must be greater than zero'));
    const period = int(policy.periodSeconds);
    if (period <= 0) errs.push(fieldError.invalid(`${at}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) {
      errs.push(fieldError.invalid(`${at}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
    }
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec. */
function validateSpec(hpa: KubeObject, minReplicasLowerBound: number): FieldError[] {
  const spec = record(hpa.spec);
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = int(spec.maxReplicas);
  if (typeof min === 'number' && min < minReplicasLowerBound) {
    errs.push(fieldError.invalid('spec.minReplicas', min, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) {
    errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  }
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  errs.push(...validateMetrics(spec.metrics, 'spec.metrics', min));
  if (isObject(spec.behavior)) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

/** ValidateHorizontalPodAutoscaler (create). */
export function validateHorizontalPodAutoscaler(hpa: KubeObject): FieldError[] {
  return validateSpec(hpa, 1);
}

/** ValidateHorizontalPodAutoscalerUpdate: an autoscaler already scaled to zero may keep minReplicas 0. */
export function validateHorizontalPodAutoscalerUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  return validateSpec(next, record(old.spec).minReplicas === 0 ? 0 : 1);
}

/** ValidateHorizontalPodAutoscalerStatusUpdate: replica counts are not negative. */
export function validateHorizontalPodAutoscalerStatusUpdate(next: KubeObject): FieldError[] {
  const status = record(next.status);
  const errs: FieldError[] = [];
  for (const key of ['currentReplicas', 'desiredReplicas']) {
    const value = int(status[key]);
    if (value < 0) errs.push(fieldError.invalid(`status.${key}`, value, 'must be greater than or equal to 0'));
  }
  return errs;
}
