import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { goLabelSelector, goPointerText } from '../../validation/go-literal.js';
import { validateAnnotations, validateLabels } from '../../validation/labels.js';
import {
  alwaysRestartingTemplate,
  collisionCountDecremented,
  intAt,
  nonNegative,
  notAbove,
  objectAt,
  sameValue,
  selectorMismatch,
  selectorOf,
  validateRequiredSelector,
} from './workload-validation.js';
import { text } from '../../api/json-fields.js';

/** pkg/apis/apps/validation's StatefulSet rules (ValidateStatefulSet, ValidateStatefulSetUpdate, ValidateStatefulSetStatusUpdate). */

type Obj = Record<string, unknown>;

function validatePodManagementPolicy(policy: string): FieldError[] {
  const path = 'spec.podManagementPolicy';
  if (policy === '') return [fieldError.required(path)];
  if (policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [fieldError.invalid(path, policy, "must be 'OrderedReady' or 'Parallel'")];
}

function validateUpdateStrategy(value: unknown): FieldError[] {
  const path = 'spec.updateStrategy';
  const strategy = objectAt(value);
  const type = text(strategy.type);
  const rollingUpdate = strategy.rollingUpdate;
  const hasRollingUpdate = rollingUpdate !== undefined && rollingUpdate !== null;
  switch (type) {
    case '':
      return [fieldError.required(path)];
    case 'OnDelete': {
      if (!hasRollingUpdate) return [];
      const r = objectAt(rollingUpdate);
      const shown = `apps.RollingUpdateStatefulSetStrategy{Partition:${intAt(r, 'partition')}, MaxUnavailable:${goPointerText('intstr.IntOrString', r.maxUnavailable)}}`;
      return [fieldError.invalid(`${path}.rollingUpdate`, new GoLiteral(shown), "only allowed for updateStrategy 'RollingUpdate'")];
    }
    case 'RollingUpdate':
      // maxUnavailable never gets here: the strategy drops it while the MaxUnavailableStatefulSet gate is off.
      return hasRollingUpdate ? nonNegative(objectAt(rollingUpdate).partition, `${path}.rollingUpdate.partition`) : [];
    default: {
      const shown = `apps.StatefulSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointerText('apps.RollingUpdateStatefulSetStrategy', rollingUpdate)}}`;
      return [fieldError.invalid(path, new GoLiteral(shown), "must be 'RollingUpdate' or 'OnDelete'")];
    }
  }
}

function validateRetentionPolicy(value: unknown): FieldError[] {
  if (value === undefined || value === null) return [];
  const policy = objectAt(value);
  const errors: FieldError[] = [];
  for (const field of ['whenDeleted', 'whenScaled']) {
    const type = text(policy[field]);
    if (type !== 'Retain' && type !== 'Delete') {
      errors.push(fieldError.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${field}`, type, ['Retain', 'Delete']));
    }
  }
  return errors;
}

/** ValidatePodTemplateSpecForStatefulSet: the selector match and the template's metadata, not its pod spec. */
function validateTemplate(template: unknown, selector: NonNullable<ReturnType<typeof selectorOf>>): FieldError[] {
  const path = 'spec.template';
  const meta = objectAt(objectAt(template).metadata);
  return [
    ...selectorMismatch(selector, template, path),
    ...validateLabels(meta.labels, `${path}.labels`),
    ...validateAnnotations(meta.annotations, `${path}.annotations`),
  ];
}

/** ValidateStatefulSetSpec. */
function validateStatefulSetSpec(spec: Obj): FieldError[] {
  const errors = [...validatePodManagementPolicy(text(spec.podManagementPolicy)), ...validateUpdateStrategy(spec.updateStrategy)];
  errors.push(...validateRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy));
  errors.push(...nonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...nonNegative(objectAt(spec.ordinals).start, 'spec.ordinals.start'));
  errors.push(...validateRequiredSelector(spec.selector, 'spec.selector', 'statefulset'));
  const selector = selectorOf(spec.selector);
  if (selector === undefined) errors.push(fieldError.invalid('spec.selector', goLabelSelector(spec.selector), ''));
  else errors.push(...validateTemplate(spec.template, selector));
  errors.push(...alwaysRestartingTemplate(spec.template, 'spec.template', 'StatefulSet'));
  return errors;
}

export function validateStatefulSet(obj: KubeObject): FieldError[] {
  return validateStatefulSetSpec(objectAt(obj.spec));
}

/** The spec fields a StatefulSet update may change; any other difference is refused as a whole. */
const MUTABLE_SPEC_FIELDS = new Set([
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
]);

const withoutMutable = (spec: Obj): Obj => Object.fromEntries(Object.entries(spec).filter(([key]) => !MUTABLE_SPEC_FIELDS.has(key)));

/** ValidateStatefulSetUpdate. */
export function validateStatefulSetUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const errors = validateStatefulSetSpec(spec);
  if (!sameValue(withoutMutable(spec), withoutMutable(objectAt(old.spec)))) {
    errors.push(
      fieldError.forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errors;
}

/** ValidateStatefulSetStatus. */
function validateStatefulSetStatus(status: Obj): FieldError[] {
  const path = 'status';
  const errors: FieldError[] = [];
  for (const field of [
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'availableReplicas',
    'observedGeneration',
    'collisionCount',
  ]) {
    errors.push(...nonNegative(status[field], `${path}.${field}`));
  }
  const aboveReplicas = 'cannot be greater than status.replicas';
  for (const field of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) {
    errors.push(...notAbove(status, field, 'replicas', path, aboveReplicas));
  }
  errors.push(...notAbove(status, 'availableReplicas', 'readyReplicas', path, 'cannot be greater than status.readyReplicas'));
  return errors;
}

/** ValidateStatefulSetStatusUpdate. */
export function validateStatefulSetStatusUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const status = objectAt(next.status);
  return [...validateStatefulSetStatus(status), ...collisionCountDecremented(status, objectAt(old.status))];
}
