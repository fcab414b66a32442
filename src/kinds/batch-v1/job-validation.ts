import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { goLabelSelector, goStringMap } from '../../validation/go-literal.js';
import { isDns1123Label } from '../../validation/names.js';
import { isDomainPrefixedPath } from '../../validation/network.js';
import {
  nonNegative,
  objectAt,
  podOptionsForUpdate,
  restartPolicyOf,
  sameValue,
  selectorOf,
  templateLabels,
} from '../apps-v1/workload-validation.js';
import { type PodValidationOptions, validatePodTemplateSpec } from '../core-v1/types/pod-validation/index.js';
import { goSuccessPolicy, validatePodFailurePolicy, validatePodReplacementPolicy, validateSuccessPolicy } from './job-policy-validation.js';

/** pkg/apis/batch/validation's Job rules (ValidateJob, ValidateJobUpdate) and the JobTemplateSpec rules CronJob uses. */

type Obj = Record<string, unknown>;

const MAX_PARALLELISM_FOR_INDEXED = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_MANAGED_BY_LENGTH = 63;

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/** The Indexed-mode limits of validateJobSpec. */
function validateIndexed(spec: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const { completions, parallelism, maxFailedIndexes } = spec;
  if (typeof completions !== 'number') errors.push(fieldError.required(`${path}.completions`, 'when completion mode is Indexed'));
  if (typeof parallelism === 'number' && parallelism > MAX_PARALLELISM_FOR_INDEXED) {
    errors.push(
      fieldError.invalid(
        `${path}.parallelism`,
        parallelism,
        `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED} when completion mode is Indexed`,
      ),
    );
  }
  if (typeof maxFailedIndexes === 'number') {
    if (typeof completions === 'number' && maxFailedIndexes > completions) {
      errors.push(fieldError.invalid(`${path}.maxFailedIndexes`, maxFailedIndexes, 'must be less than or equal to completions'));
    }
    if (maxFailedIndexes > MAX_FAILED_INDEXES) {
      errors.push(fieldError.invalid(`${path}.maxFailedIndexes`, maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES}`));
    }
  }
  if (typeof completions === 'number' && completions > COMPLETIONS_SOFT_LIMIT && isSet(spec.backoffLimitPerIndex)) {
    const why = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
    if (typeof maxFailedIndexes !== 'number') {
      errors.push(fieldError.required(`${path}.maxFailedIndexes`, `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
    }
    if (typeof parallelism === 'number' && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
      errors.push(
        fieldError.invalid(
          `${path}.parallelism`,
          parallelism,
          `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${why}`,
        ),
      );
    }
    if (typeof maxFailedIndexes === 'number' && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS) {
      errors.push(
        fieldError.invalid(
          `${path}.maxFailedIndexes`,
          maxFailedIndexes,
          `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS} ${why}`,
        ),
      );
    }
  }
  return errors;
}

/** The restart policy a Job's pods may have: OnFailure or Never (Never only, with a podFailurePolicy). */
function validateJobRestartPolicy(spec: Obj, path: string): FieldError[] {
  const field = `${path}.template.spec.restartPolicy`;
  // Defaulting turns an unset policy into Always, so both read as "not chosen".
  const policy = restartPolicyOf(spec.template);
  if (policy === 'Always') return [fieldError.required(field, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never') return [fieldError.notSupported(field, policy, ['OnFailure', 'Never'])];
  if (isSet(spec.podFailurePolicy) && policy !== 'Never') {
    return [fieldError.invalid(field, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  }
  return [];
}

/** validateJobSpec: what a Job and a CronJob's job template share (`path` is "spec" or "spec.jobTemplate.spec"). */
export function validateJobSpecCommon(spec: Obj, path: string, podOptions: PodValidationOptions = {}): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
  ]) {
    errors.push(...nonNegative(spec[field], `${path}.${field}`));
  }
  if (isSet(spec.maxFailedIndexes)) {
    errors.push(...nonNegative(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (!isSet(spec.backoffLimitPerIndex))
      errors.push(fieldError.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') {
    errors.push(...isDomainPrefixedPath(`${path}.managedBy`, spec.managedBy));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) errors.push(fieldError.tooLong(`${path}.managedBy`, MAX_MANAGED_BY_LENGTH));
  }
  const mode = typeof spec.completionMode === 'string' ? spec.completionMode : undefined;
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed')
      errors.push(fieldError.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') errors.push(...validateIndexed(spec, path));
  }
  if (mode === undefined || mode === 'NonIndexed') {
    for (const field of ['backoffLimitPerIndex', 'maxFailedIndexes']) {
      if (isSet(spec[field])) errors.push(fieldError.invalid(`${path}.${field}`, spec[field], 'requires indexed completion mode'));
    }
  }
  if (isSet(spec.podFailurePolicy)) errors.push(...validatePodFailurePolicy(spec, `${path}.podFailurePolicy`));
  if (isSet(spec.successPolicy)) {
    if (mode !== 'Indexed')
      errors.push(fieldError.invalid(`${path}.successPolicy`, goSuccessPolicy(spec.successPolicy), 'requires indexed completion mode'));
    else errors.push(...validateSuccessPolicy(spec, `${path}.successPolicy`));
  }
  errors.push(...validatePodReplacementPolicy(spec, `${path}.podReplacementPolicy`));
  errors.push(...validatePodTemplateSpec(objectAt(spec.template), `${path}.template`, podOptions));
  errors.push(...validateJobRestartPolicy(spec, path));
  return errors;
}

/** ValidateJobSpec: the common rules, a required selector, and the template's labels selected by it. */
function validateJobSpec(spec: Obj, allowInvalidLabelValue: boolean, podOptions: PodValidationOptions): FieldError[] {
  const errors = validateJobSpecCommon(spec, 'spec', podOptions);
  if (!isSet(spec.selector)) errors.push(fieldError.required('spec.selector'));
  else
    errors.push(
      ...validateLabelSelector(asLabelSelectorObject(spec.selector), 'spec.selector', {
        allowInvalidLabelValueInSelector: allowInvalidLabelValue,
      }),
    );
  const selector = selectorOf(spec.selector);
  // Unlike the apps workloads, an empty selector is not exempt here: nothing else selects all pods.
  if (selector !== undefined && !selector.matches(labelsOf(spec.template))) {
    errors.push(
      fieldError.invalid(
        'spec.template.metadata.labels',
        goStringMap(templateLabels(spec.template)),
        '`selector` does not match template `labels`',
      ),
    );
  }
  return errors;
}

function labelsOf(template: unknown): Record<string, string> {
  const labels = templateLabels(template);
  return isObject(labels) ? (labels as Record<string, string>) : {};
}

const LEGACY_UID_LABEL = 'controller-uid';
const LEGACY_NAME_LABEL = 'job-name';
const UID_LABEL = 'batch.kubernetes.io/controller-uid';
const NAME_LABEL = 'batch.kubernetes.io/job-name';

/** ValidateHasLabel on the template's metadata. */
function hasLabel(labels: unknown, key: string, expected: string): FieldError[] {
  const field = `spec.template.metadata.labels[${key}]`;
  const actual = isObject(labels) ? labels[key] : undefined;
  if (actual === undefined) return [fieldError.required(field, `must be '${expected}'`)];
  return actual === expected ? [] : [fieldError.invalid(field, goStringMap(labels), `must be '${expected}'`)];
}

/** validateGeneratedSelector: a generated selector must select exactly this Job's generated pod labels. */
function validateGeneratedSelector(job: KubeObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = objectAt(job.spec);
  if (spec.manualSelector === true || !isSet(spec.selector)) return [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  const errors: FieldError[] = [];
  if (uid === '') errors.push(fieldError.required('metadata.uid'));
  const labels = templateLabels(spec.template);
  errors.push(...hasLabel(labels, LEGACY_UID_LABEL, uid), ...hasLabel(labels, LEGACY_NAME_LABEL, name));
  const expected: Record<string, string> = { [LEGACY_UID_LABEL]: uid, [LEGACY_NAME_LABEL]: name };
  if (requirePrefixedLabels) {
    errors.push(...hasLabel(labels, UID_LABEL, uid), ...hasLabel(labels, NAME_LABEL, name));
    expected[UID_LABEL] = uid;
    expected[NAME_LABEL] = name;
  }
  const selector = selectorOf(spec.selector);
  if (selector !== undefined && !selector.matches(expected)) {
    errors.push(fieldError.invalid('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return errors;
}

/** ValidateJob (create). */
export function validateJob(job: KubeObject): FieldError[] {
  return validateJobWith(job, true, false, {});
}

function validateJobWith(
  job: KubeObject,
  requirePrefixedLabels: boolean,
  allowInvalidLabelValue: boolean,
  podOptions: PodValidationOptions,
): FieldError[] {
  const spec = objectAt(job.spec);
  const errors = [...validateGeneratedSelector(job, requirePrefixedLabels), ...validateJobSpec(spec, allowInvalidLabelValue, podOptions)];
  const completions = spec.completions;
  if (spec.completionMode === 'Indexed' && typeof completions === 'number' && completions > 0) {
    // The last index becomes part of a pod's hostname, which must stay a DNS label.
    const name = job.metadata.name ?? '';
    const hostname = `${name}-${completions - 1}`;
    if (isDns1123Label(hostname).length > 0) {
      errors.push(fieldError.invalid('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errors;
}

/** validateCompletions (elastic Indexed Jobs, GA): completions change only together with parallelism. */
function validateCompletions(spec: Obj, oldSpec: Obj): FieldError[] {
  const path = 'spec.completions';
  const completions = spec.completions ?? null;
  if (sameValue(completions, oldSpec.completions ?? null)) return [];
  if (spec.completionMode !== 'Indexed') return [fieldError.invalid(path, completions, 'field is immutable')];
  if (completions === null || completions === spec.parallelism) return [];
  return [fieldError.invalid(path, completions, 'can only be modified in tandem with spec.parallelism')];
}

/**
 * The template of a suspended Job that never started may change its scheduling directives (node affinity, node
 * selector, tolerations, scheduling gates) and its labels and annotations: the old template with those taken over.
 */
function templateWithNewSchedulingDirectives(template: Obj, oldTemplate: Obj): Obj {
  const pod = objectAt(template.spec);
  const oldPod: Obj = { ...objectAt(oldTemplate.spec) };
  const affinity = pod.affinity;
  const oldAffinity = oldPod.affinity;
  if (!isSet(affinity) && isSet(oldAffinity)) {
    const { nodeAffinity: _dropped, ...rest } = objectAt(oldAffinity);
    if (Object.values(rest).every((v) => v === undefined || v === null)) delete oldPod.affinity;
    else oldPod.affinity = rest;
  } else if (isSet(affinity)) {
    oldPod.affinity = { ...(isSet(oldAffinity) ? objectAt(oldAffinity) : {}), nodeAffinity: objectAt(affinity).nodeAffinity };
  }
  for (const field of ['nodeSelector', 'tolerations', 'schedulingGates']) oldPod[field] = pod[field];
  const meta = objectAt(template.metadata);
  const oldMeta = { ...objectAt(oldTemplate.metadata), labels: meta.labels, annotations: meta.annotations };
  return { ...oldTemplate, metadata: oldMeta, spec: oldPod };
}

function validatePodTemplateUpdate(spec: Obj, oldSpec: Obj, mutableScheduling: boolean): FieldError[] {
  const template = objectAt(spec.template);
  const oldTemplate = mutableScheduling
    ? templateWithNewSchedulingDirectives(template, objectAt(oldSpec.template))
    : objectAt(oldSpec.template);
  return sameValue(template, oldTemplate) ? [] : [fieldError.invalid('spec.template', template, 'field is immutable')];
}

function immutable(spec: Obj, oldSpec: Obj, field: string): FieldError[] {
  const value = spec[field] ?? null;
  return sameValue(value, oldSpec[field] ?? null) ? [] : [fieldError.invalid(`spec.${field}`, value, 'field is immutable')];
}

/**
 * The job strategy's ValidateUpdate: ValidateJob, then ValidateJobUpdate, which validates the spec again (a spec
 * error is listed twice, as kube-apiserver lists it), with the options the strategy derives from the old Job.
 */
export function validateJobUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const spec = objectAt(next.spec);
  const oldSpec = objectAt(old.spec);
  const oldSelector = asLabelSelectorObject(oldSpec.selector);
  // Selectors stored before label values were checked keep validating.
  const allowInvalidLabelValue = oldSelector !== undefined && validateLabelSelector(oldSelector, 'spec.selector').length > 0;
  // Scheduling directives stay mutable while the Job is suspended and has never started.
  const mutableScheduling = oldSpec.suspend === true && !isSet(objectAt(old.status).startTime);
  // Jobs created before the prefixed labels existed are not asked for them.
  const oldLabels = objectAt(templateLabels(oldSpec.template));
  const requirePrefixedLabels = oldLabels[NAME_LABEL] !== undefined && oldLabels[UID_LABEL] !== undefined;
  const podOptions = podOptionsForUpdate(spec.template, oldSpec.template);
  const errors = [
    ...validateJobWith(next, requirePrefixedLabels, allowInvalidLabelValue, podOptions),
    ...validateJobSpec(spec, allowInvalidLabelValue, podOptions),
    ...validateCompletions(spec, oldSpec),
  ];
  if (!sameValue(spec.selector ?? null, oldSpec.selector ?? null)) {
    errors.push(fieldError.invalid('spec.selector', goLabelSelector(spec.selector), 'field is immutable'));
  }
  errors.push(...validatePodTemplateUpdate(spec, oldSpec, mutableScheduling));
  for (const field of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    errors.push(...immutable(spec, oldSpec, field));
  }
  return errors;
}

/** ValidateJobTemplateSpec (a CronJob's spec.jobTemplate): the selector is generated per Job, so none may be set. */
export function validateJobTemplateSpec(template: unknown, path: string, podOptions: PodValidationOptions = {}): FieldError[] {
  const spec = objectAt(objectAt(template).spec);
  const errors = validateJobSpecCommon(spec, `${path}.spec`, podOptions);
  if (isSet(spec.selector))
    errors.push(fieldError.invalid(`${path}.spec.selector`, goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errors.push(fieldError.notSupported(`${path}.spec.manualSelector`, true, ['nil', 'false']));
  return errors;
}

/** WarningsForJobSpec (pkg/api/job), without the pod template's warnings. */
export function jobSpecWarnings(jobSpec: unknown, path: string): string[] {
  const spec = objectAt(jobSpec);
  if (spec.completionMode !== 'Indexed') return [];
  const completions = typeof spec.completions === 'number' ? spec.completions : 0;
  const parallelism = typeof spec.parallelism === 'number' ? spec.parallelism : 0;
  if (completions <= COMPLETIONS_SOFT_LIMIT || parallelism <= PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) return [];
  return [
    `${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`,
  ];
}
