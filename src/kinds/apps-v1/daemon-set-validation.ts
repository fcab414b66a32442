import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { goQuote } from '../../util/go-quote.js';
import { goIntOrString, goLabelSelector, goPointerText } from '../../validation/go-literal.js';
import { type PodValidationOptions, validatePodTemplateSpec } from '../core-v1/types/pod-validation/index.js';
import {
  alwaysRestartingTemplate,
  collisionCountDecremented,
  immutableSelector,
  intOrPercentValue,
  nonNegative,
  notMoreThan100Percent,
  objectAt,
  podOptionsForUpdate,
  selectorMismatch,
  selectorOf,
  validatePositiveIntOrPercent,
} from './workload-validation.js';

/** pkg/apis/apps/validation's DaemonSet rules (ValidateDaemonSet, ValidateDaemonSetUpdate, ValidateDaemonSetStatusUpdate). */

type Obj = Record<string, unknown>;

/** ValidateRollingUpdateDaemonSet: exactly one of maxUnavailable and maxSurge is non-zero. */
function validateRollingUpdate(rollingUpdate: Obj, path: string): FieldError[] {
  const { maxUnavailable, maxSurge } = rollingUpdate;
  const errors = [
    ...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`),
    ...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`),
    ...notMoreThan100Percent(maxSurge, `${path}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errors.push(fieldError.invalid(`${path}.maxSurge`, goIntOrString(maxSurge), 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errors.push(fieldError.required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  }
  return errors;
}

/** ValidateDaemonSetUpdateStrategy. */
function validateUpdateStrategy(value: unknown): FieldError[] {
  const path = 'spec.updateStrategy';
  const strategy = objectAt(value);
  const type = typeof strategy.type === 'string' ? strategy.type : '';
  if (type === 'OnDelete') return [];
  if (type === 'RollingUpdate') {
    const rollingUpdate = strategy.rollingUpdate;
    if (rollingUpdate === undefined || rollingUpdate === null) return [fieldError.required(`${path}.rollingUpdate`)];
    return validateRollingUpdate(objectAt(rollingUpdate), `${path}.rollingUpdate`);
  }
  const shown = `apps.DaemonSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointerText('apps.RollingUpdateDaemonSet', strategy.rollingUpdate)}}`;
  return [fieldError.notSupported(path, new GoLiteral(shown), ['RollingUpdate', 'OnDelete'])];
}

/** ValidateDaemonSetSpec: unlike the other workloads an absent selector is only reported as not matching. */
function validateDaemonSetSpec(spec: Obj, podOptions: PodValidationOptions = {}): FieldError[] {
  const errors = validateLabelSelector(asLabelSelectorObject(spec.selector), 'spec.selector');
  const selector = selectorOf(spec.selector);
  if (selector !== undefined) errors.push(...selectorMismatch(selector, spec.template, 'spec.template'));
  const s = spec.selector;
  if (s !== undefined && s !== null) {
    const sel = objectAt(s);
    const count = Object.keys(objectAt(sel.matchLabels)).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0);
    if (count === 0) errors.push(fieldError.invalid('spec.selector', goLabelSelector(s), 'empty selector is invalid for daemonset'));
  }
  errors.push(...validatePodTemplateSpec(objectAt(spec.template), 'spec.template', podOptions));
  errors.push(...alwaysRestartingTemplate(spec.template, 'spec.template', 'DaemonSet'));
  errors.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...validateUpdateStrategy(spec.updateStrategy));
  errors.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errors;
}

export function validateDaemonSet(obj: KubeObject): FieldError[] {
  return validateDaemonSetSpec(objectAt(obj.spec));
}

/**
 * The DaemonSet strategy's ValidateUpdate: ValidateDaemonSet and then ValidateDaemonSetUpdate, which validates the
 * spec again (so a spec error is listed twice, as kube-apiserver lists it), then the apps/v1 selector immutability.
 */
export function validateDaemonSetUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const oldSpec = objectAt(old.spec);
  const podOptions = podOptionsForUpdate(spec.template, oldSpec.template);
  return [...validateDaemonSetSpec(spec, podOptions), ...validateDaemonSetSpec(spec, podOptions), ...immutableSelector(spec, oldSpec)];
}

const STATUS_COUNTS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'observedGeneration',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'collisionCount',
];

/** ValidateDaemonSetStatusUpdate. */
export function validateDaemonSetStatusUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const status = objectAt(next.status);
  const errors = STATUS_COUNTS.flatMap((field) => nonNegative(status[field], `status.${field}`));
  return [...errors, ...collisionCountDecremented(status, objectAt(old.status))];
}
