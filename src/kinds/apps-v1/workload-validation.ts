import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { LabelSelector } from '../../selectors/label-selector.js';
import { asLabelSelectorObject, labelSelectorAsSelector, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { goIntOrString, goLabelSelector, goStringMap } from '../../validation/go-literal.js';
import { isDns1123Label } from '../../validation/names.js';
import { type PodValidationOptions, validatePodTemplateSpec } from '../core-v1/types/pod-validation/index.js';

/**
 * The checks pkg/apis/apps/validation shares between Deployment, ReplicaSet, StatefulSet and DaemonSet (and that
 * the ReplicationController and Job validations reuse): counts, the selector against the template, the pod
 * template's workload rules, int-or-percent rolling-update limits and immutable fields.
 */

type Obj = Record<string, unknown>;

export const objectAt = (value: unknown): Obj => (isObject(value) ? value : {});

/** An integer field as Go holds it after decoding: absent reads as the zero value. */
export const intAt = (obj: Obj, key: string): number => (typeof obj[key] === 'number' ? (obj[key] as number) : 0);

/** ValidateNonnegativeField; `undefined` (an unset pointer) passes. */
export function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [fieldError.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** A status count above another one it must not exceed (`cannot be greater than status.replicas`). */
export function notAbove(status: Obj, field: string, limit: string, path: string, detail: string): FieldError[] {
  const value = intAt(status, field);
  return value > intAt(status, limit) ? [fieldError.invalid(`${path}.${field}`, value, detail)] : [];
}

export function templateLabels(template: unknown): unknown {
  return objectAt(objectAt(template).metadata).labels;
}

/** metav1.LabelSelectorAsSelector, or undefined where Go returns an error (an operator or key it refuses). */
export function selectorOf(selector: unknown): LabelSelector | undefined {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(selector));
  } catch {
    return undefined;
  }
}

/** The template's labels must be selected by a non-empty selector (`templatePath` is e.g. "spec.template"). */
export function selectorMismatch(selector: LabelSelector, template: unknown, templatePath: string): FieldError[] {
  const labels = templateLabels(template);
  if (selector.empty || selector.matches(isObject(labels) ? (labels as Record<string, string>) : {})) return [];
  return [fieldError.invalid(`${templatePath}.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`')];
}

/** The selector an apps/v1 workload must carry: present, valid, with at least one requirement. */
export function validateRequiredSelector(selector: unknown, path: string, kindWord: string): FieldError[] {
  if (selector === undefined || selector === null) return [fieldError.required(path)];
  const errors = validateLabelSelector(asLabelSelectorObject(selector), path);
  const s = objectAt(selector);
  const count = Object.keys(objectAt(s.matchLabels)).length + (Array.isArray(s.matchExpressions) ? s.matchExpressions.length : 0);
  if (count === 0) errors.push(fieldError.invalid(path, goLabelSelector(selector), `empty selector is invalid for ${kindWord}`));
  return errors;
}

/** RestartPolicy after defaulting: SetDefaults_PodSpec turns an unset or empty one into Always. */
export function restartPolicyOf(template: unknown): string {
  const policy = objectAt(objectAt(template).spec).restartPolicy;
  return typeof policy === 'string' && policy !== '' ? policy : 'Always';
}

/** The pod rules every replicated workload's template obeys: restartPolicy Always, no activeDeadlineSeconds. */
export function alwaysRestartingTemplate(template: unknown, templatePath: string, kind: string): FieldError[] {
  const errors: FieldError[] = [];
  const policy = restartPolicyOf(template);
  if (policy !== 'Always') errors.push(fieldError.notSupported(`${templatePath}.spec.restartPolicy`, policy, ['Always']));
  const deadline = objectAt(objectAt(template).spec).activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    errors.push(fieldError.forbidden(`${templatePath}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errors;
}

/** ValidatePodTemplateSpecForReplicaSet (Deployments use it too, hence the ReplicaSet wording in its messages). */
export function validatePodTemplateSpecForReplicaSet(
  template: unknown,
  selector: LabelSelector,
  templatePath: string,
  podOptions: PodValidationOptions,
): FieldError[] {
  return [
    ...selectorMismatch(selector, template, templatePath),
    ...validatePodTemplateSpec(objectAt(template), templatePath, podOptions),
    ...alwaysRestartingTemplate(template, templatePath, 'ReplicaSet'),
  ];
}

/** The selector, then the template checked against it, as ValidateDeploymentSpec and ValidateReplicaSetSpec do. */
export function validateSelectorAndTemplate(spec: Obj, kindWord: string, podOptions: PodValidationOptions): FieldError[] {
  const errors = validateRequiredSelector(spec.selector, 'spec.selector', kindWord);
  const selector = selectorOf(spec.selector);
  if (selector === undefined) errors.push(fieldError.invalid('spec.selector', goLabelSelector(spec.selector), 'invalid label selector'));
  else errors.push(...validatePodTemplateSpecForReplicaSet(spec.template, selector, 'spec.template', podOptions));
  return errors;
}

const PERCENT = /^[0-9]+%$/;
const PERCENT_ERROR =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') return PERCENT.test(value) ? [] : [fieldError.invalid(path, goIntOrString(value), PERCENT_ERROR)];
  return nonNegative(value, path);
}

/** getIntOrPercentValue: a percentage's number, an integer's value, Atoi of other text (0 when it is not one). */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  if (PERCENT.test(value)) return Number.parseInt(value.slice(0, -1), 10);
  return /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100Percent(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'string' || !PERCENT.test(value) || intOrPercentValue(value) <= 100) return [];
  return [fieldError.invalid(path, goIntOrString(value), 'must not be greater than 100%')];
}

/** Structural equality of decoded JSON values, map key order ignored (apiequality.Semantic for these types). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  return keys.every((k) => sameValue(a[k], b[k]));
}

/**
 * What an update tells the pod validation: the template is the stored one validated again (so formats older
 * servers accepted stay accepted) only when the update leaves it as it was.
 */
export function podOptionsForUpdate(template: unknown, oldTemplate: unknown): PodValidationOptions {
  return { isUpdate: sameValue(template, oldTemplate) };
}

/** The selector may not change (apps/v1 strategies add this to ValidateXUpdate). */
export function immutableSelector(next: Obj, old: Obj): FieldError[] {
  if (sameValue(next.selector, old.selector)) return [];
  return [fieldError.invalid('spec.selector', goLabelSelector(next.selector), 'field is immutable')];
}

/** IsDecremented of status.collisionCount: a set count may only grow, and may not be dropped. */
export function collisionCountDecremented(next: Obj, old: Obj): FieldError[] {
  const before = old.collisionCount;
  if (typeof before !== 'number') return [];
  const after = typeof next.collisionCount === 'number' ? next.collisionCount : undefined;
  if (after !== undefined && after >= before) return [];
  return [fieldError.invalid('status.collisionCount', after ?? 0, 'cannot be decremented')];
}

/** ValidateReplicaSetStatus (shared with ReplicationController's, which has the same fields and rules). */
export function validateReplicaCountsStatus(value: unknown): FieldError[] {
  const path = 'status';
  const status = objectAt(value);
  const errors: FieldError[] = [];
  for (const field of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    errors.push(...nonNegative(status[field], `${path}.${field}`));
  }
  const aboveReplicas = 'cannot be greater than status.replicas';
  errors.push(...notAbove(status, 'fullyLabeledReplicas', 'replicas', path, aboveReplicas));
  errors.push(...notAbove(status, 'readyReplicas', 'replicas', path, aboveReplicas));
  errors.push(...notAbove(status, 'availableReplicas', 'replicas', path, aboveReplicas));
  errors.push(...notAbove(status, 'availableReplicas', 'readyReplicas', path, 'cannot be greater than readyReplicas'));
  return errors;
}

/**
 * The create warning of the workloads whose name prefixes their pods' names (Deployment, ReplicaSet,
 * ReplicationController, Job, CronJob): a name that is a subdomain but not a DNS label makes odd hostnames.
 */
export function podNamePrefixWarnings(obj: KubeObject): string[] {
  const problems = isDns1123Label(obj.metadata.name ?? '');
  if (problems.length === 0) return [];
  return [
    `metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${problems.join(' ')}]`,
  ];
}
