import { isObject, type KubeObject } from '../../api/types.js';
import {
  arrayOf,
  bool,
  conditionDefinition,
  int32,
  int64,
  kindDefinition,
  LABEL_SELECTOR,
  listDefinition,
  POD_TEMPLATE_SPEC,
  ref,
  str,
  stringArray,
  TIME,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, containerCells, formatLabelSelector } from '../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { humanDuration } from '../../tables/human-duration.js';
import { get, integer, list, text, timestamp } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { goQuote } from '../../util/go-quote.js';
import { podNamePrefixWarnings } from '../apps-v1/workload-validation.js';
import { specOf } from '../core-v1/types/defaulting.js';
import { defaultPodTemplate } from '../core-v1/types/pod-defaults.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, integerAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { validateJobStatusUpdate } from './job-status-validation.js';
import { jobSpecWarnings, validateJob, validateJobUpdate } from './job-validation.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const jobSpecSelector =
  'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';
const jobStatusSucceeded =
  'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.';

/** hasJobCondition: the first condition of the type decides. */
function hasCondition(job: KubeObject, type: string): boolean {
  const condition = list(get(job, 'status', 'conditions')).find((entry) => text(get(entry, 'type')) === type);
  return condition !== undefined && text(get(condition, 'status')) === 'True';
}

function jobStatus(job: KubeObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (typeof job.metadata.deletionTimestamp === 'string') return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(job: KubeObject): string {
  const succeeded = integer(get(job, 'status', 'succeeded'));
  const wanted = get(job, 'spec', 'completions');
  if (typeof wanted === 'number') return `${succeeded}/${Math.trunc(wanted)}`;
  const parallelism = integer(get(job, 'spec', 'parallelism'));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(job: KubeObject, now: Date): string {
  const start = timestamp(get(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const end = timestamp(get(job, 'status', 'completionTime')) ?? now.getTime();
  return humanDuration(end - start);
}

const JOB_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', jobStatusSucceeded),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', jobSpecSelector, { wide: true }),
  ],
  row(job, now) {
    const [names, images] = containerCells(get(job, 'spec', 'template', 'spec'));
    return [
      job.metadata.name ?? '',
      jobStatus(job),
      completions(job),
      duration(job, now),
      age(job.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(get(job, 'spec', 'selector')),
    ];
  },
};

/** A Job without labels of its own takes its template's (SetDefaults_Job). */
function copyLabelsIfUnset(obj: KubeObject, templateLabels: unknown): void {
  const labels = obj.metadata.labels;
  if (isObject(templateLabels) && (labels === undefined || Object.keys(labels).length === 0)) {
    obj.metadata.labels = { ...(templateLabels as Record<string, string>) };
  }
}

/**
 * The job registry's PrepareForCreate (generateSelector): unless the user chose manualSelector, the pods carry the
 * Job's uid and name, and the selector selects the uid. Labels the user already set are kept, so a conflicting one
 * is refused by validation rather than overwritten.
 */
function generateJobSelector(obj: KubeObject): void {
  const s = specOf(obj);
  if (s.manualSelector === true) return;
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  if (!isObject(s.template)) s.template = {};
  const template = s.template as Record<string, unknown>;
  if (!isObject(template.metadata)) template.metadata = {};
  const meta = template.metadata as Record<string, unknown>;
  const labels: Record<string, unknown> = isObject(meta.labels) ? meta.labels : {};
  for (const [key, value] of Object.entries(GENERATED_LABELS(uid, name))) labels[key] ??= value;
  meta.labels = labels;
  if (!isObject(s.selector)) s.selector = {};
  const selector = s.selector as Record<string, unknown>;
  const matchLabels: Record<string, unknown> = isObject(selector.matchLabels) ? selector.matchLabels : {};
  matchLabels['batch.kubernetes.io/controller-uid'] ??= uid;
  selector.matchLabels = matchLabels;
  // kube-apiserver defaults again when it reads the created Job back, so a Job created without labels ends up
  // with the generated ones too.
  copyLabelsIfUnset(obj, labels);
}

const GENERATED_LABELS = (uid: string, name: string): Record<string, string> => ({
  'batch.kubernetes.io/controller-uid': uid,
  'batch.kubernetes.io/job-name': name,
  'controller-uid': uid,
  'job-name': name,
});

/** batch/v1 defaulting (SetDefaults_Job). */
function defaultJob(obj: KubeObject): void {
  const s = specOf(obj);
  if (s.completions === undefined && s.parallelism === undefined) {
    s.completions = 1;
    s.parallelism = 1;
  }
  s.parallelism ??= 1;
  // With a per-index limit, the job-wide one no longer bounds anything unless the user sets it.
  s.backoffLimit ??= s.backoffLimitPerIndex === undefined ? 6 : 2147483647;
  s.completionMode ??= 'NonIndexed';
  s.suspend ??= false;
  const failurePolicy = isObject(s.podFailurePolicy) ? s.podFailurePolicy : undefined;
  for (const rule of Array.isArray(failurePolicy?.rules) ? failurePolicy.rules : []) {
    if (!isObject(rule) || !Array.isArray(rule.onPodConditions)) continue;
    for (const pattern of rule.onPodConditions) if (isObject(pattern) && (pattern.status ?? '') === '') pattern.status = 'True';
  }
  s.podReplacementPolicy ??= failurePolicy === undefined ? 'TerminatingOrFailed' : 'Failed';
  const templateLabels = isObject(s.template) && isObject(s.template.metadata) ? s.template.metadata.labels : undefined;
  copyLabelsIfUnset(obj, templateLabels);
  defaultPodTemplate(s.template);
}

const P = 'io.k8s.api.batch.v1.';

const DEFINITIONS: Definitions = {
  [`${P}Job`]: kindDefinition({
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    description: 'Job runs pods until a given number of them complete successfully.',
    properties: {
      spec: ref(`${P}JobSpec`, 'Desired behavior of the Job.'),
      status: ref(`${P}JobStatus`, 'Current status of the Job.'),
    },
  }),
  [`${P}JobList`]: listDefinition('batch', 'v1', 'Job', `${P}Job`),
  [`${P}JobSpec`]: {
    type: 'object',
    description: 'Desired behavior of a Job.',
    properties: {
      activeDeadlineSeconds: int64('Seconds since startTime the Job may stay active before it is terminated.'),
      backoffLimit: int32('Retries before the Job is marked failed. Defaults to 6.'),
      backoffLimitPerIndex: int32('Retries allowed per index of an Indexed Job before that index is marked failed. Immutable.'),
      completionMode: str('NonIndexed (default) or Indexed completion tracking.'),
      completions: int32('Number of successfully finished pods the Job needs.'),
      managedBy: str(
        'Controller that reconciles the Job; the built-in controller skips values other than kubernetes.io/job-controller. Immutable.',
      ),
      manualSelector: bool('Whether the user, not the system, chooses the pod labels and selector.'),
      maxFailedIndexes: int32('Failed indexes tolerated before the whole Job fails; requires backoffLimitPerIndex.'),
      parallelism: int32('Maximum number of pods running at the same time.'),
      podFailurePolicy: ref(`${P}PodFailurePolicy`, 'Rules deciding how failed pods affect the backoff limit.'),
      podReplacementPolicy: str('When replacement pods are created: TerminatingOrFailed or Failed.'),
      selector: ref(LABEL_SELECTOR, 'Label query over the pods of the Job; normally set by the system.'),
      successPolicy: ref(`${P}SuccessPolicy`, 'When an Indexed Job may be declared succeeded early. Immutable.'),
      suspend: bool('Whether the controller should stop creating pods (and delete active ones). Defaults to false.'),
      template: ref(POD_TEMPLATE_SPEC, 'Pod template of the Job; restartPolicy must be Never or OnFailure.'),
      ttlSecondsAfterFinished: int32('Seconds after the Job finishes before it may be deleted automatically.'),
    },
    required: ['template'],
  },
  [`${P}PodFailurePolicy`]: {
    type: 'object',
    description: 'How failed pods influence the backoff limit.',
    properties: {
      rules: arrayOf(definitionRef(`${P}PodFailurePolicyRule`), 'Rules evaluated in order; the first match decides. At most 20.', {
        'x-kubernetes-list-type': 'atomic',
      }),
    },
    required: ['rules'],
  },
  [`${P}PodFailurePolicyRule`]: {
    type: 'object',
    description: 'Action taken on a pod failure that meets the requirements; set onExitCodes or onPodConditions, not both.',
    properties: {
      action: str('FailJob, FailIndex, Ignore or Count.'),
      onExitCodes: ref(`${P}PodFailurePolicyOnExitCodesRequirement`, 'Requirement on the container exit codes.'),
      onPodConditions: arrayOf(
        definitionRef(`${P}PodFailurePolicyOnPodConditionsPattern`),
        'Pod condition patterns; the requirement holds if any matches. At most 20.',
        { 'x-kubernetes-list-type': 'atomic' },
      ),
    },
    required: ['action'],
  },
  [`${P}PodFailurePolicyOnExitCodesRequirement`]: {
    type: 'object',
    description: 'Requirement on the exit codes of the containers of a failed pod.',
    properties: {
      containerName: str('Only check the container with this name; all containers when unset.'),
      operator: str('In or NotIn.'),
      values: arrayOf({ type: 'integer', format: 'int32' }, 'Ordered exit codes without duplicates. At most 255.', {
        'x-kubernetes-list-type': 'set',
      }),
    },
    required: ['operator', 'values'],
  },
  [`${P}PodFailurePolicyOnPodConditionsPattern`]: {
    type: 'object',
    description: 'Pattern matched against the conditions of a failed pod.',
    properties: {
      status: str('Required condition status. Defaults to True.'),
      type: str('Required condition type.'),
    },
    required: ['type', 'status'],
  },
  [`${P}SuccessPolicy`]: {
    type: 'object',
    description: 'When a Job may be declared succeeded based on which indexes succeeded.',
    properties: {
      rules: arrayOf(definitionRef(`${P}SuccessPolicyRule`), 'Alternative rules evaluated in order. At most 20.', {
        'x-kubernetes-list-type': 'atomic',
      }),
    },
    required: ['rules'],
  },
  [`${P}SuccessPolicyRule`]: {
    type: 'object',
    description: 'A rule declaring a Job succeeded; needs succeededIndexes or succeededCount.',
    properties: {
      succeededCount: int32('Minimum number of succeeded indexes (within succeededIndexes when set).'),
      succeededIndexes: str('Indexes that must all succeed, as intervals such as "1,3-5,7".'),
    },
  },
  [`${P}JobStatus`]: {
    type: 'object',
    description: 'Current state of a Job.',
    properties: {
      active: int32('Pending or running pods that are not terminating.'),
      completedIndexes: str('Completed indexes of an Indexed Job, as intervals such as "1,3-5,7".'),
      completionTime: ref(TIME, 'When the Job completed successfully.'),
      conditions: arrayOf(definitionRef(`${P}JobCondition`), "Latest observations of the Job's state.", {
        'x-kubernetes-list-type': 'atomic',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'type',
      }),
      failed: int32('Pods that reached phase Failed.'),
      failedIndexes: str('Failed indexes when backoffLimitPerIndex is set, as intervals such as "1,3-5,7".'),
      ready: int32('Active pods with a Ready condition.'),
      startTime: ref(TIME, 'When the controller started processing the Job.'),
      succeeded: int32('Pods that reached phase Succeeded.'),
      terminating: int32('Pods that are terminating.'),
      uncountedTerminatedPods: ref(`${P}UncountedTerminatedPods`, 'UIDs of terminated pods not yet counted in the status counters.'),
    },
  },
  [`${P}UncountedTerminatedPods`]: {
    type: 'object',
    description: 'UIDs of terminated pods the Job status counters do not include yet.',
    properties: {
      failed: stringArray('UIDs of failed pods.', { 'x-kubernetes-list-type': 'set' }),
      succeeded: stringArray('UIDs of succeeded pods.', { 'x-kubernetes-list-type': 'set' }),
    },
  },
  [`${P}JobCondition`]: conditionDefinition('State of a Job at a point in time.', {
    lastProbeTime: ref(TIME, 'When the condition was last checked.'),
  }),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.batch.v1.Job': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.batch.v1.JobCondition': {
    tags: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.batch.v1.JobList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.batch.v1.JobSpec': {
    tags: {
      parallelism: 1,
      completions: 2,
      activeDeadlineSeconds: 3,
      selector: 4,
      manualSelector: 5,
      template: 6,
      backoffLimit: 7,
      ttlSecondsAfterFinished: 8,
      completionMode: 9,
      suspend: 10,
      podFailurePolicy: 11,
      backoffLimitPerIndex: 12,
      maxFailedIndexes: 13,
      podReplacementPolicy: 14,
      managedBy: 15,
      successPolicy: 16,
    },
    pointers: [
      'parallelism',
      'completions',
      'activeDeadlineSeconds',
      'backoffLimit',
      'backoffLimitPerIndex',
      'maxFailedIndexes',
      'manualSelector',
      'ttlSecondsAfterFinished',
      'completionMode',
      'suspend',
      'podReplacementPolicy',
      'managedBy',
    ],
  },
  'io.k8s.api.batch.v1.JobStatus': {
    tags: {
      conditions: 1,
      startTime: 2,
      completionTime: 3,
      active: 4,
      succeeded: 5,
      failed: 6,
      completedIndexes: 7,
      uncountedTerminatedPods: 8,
      ready: 9,
      failedIndexes: 10,
      terminating: 11,
    },
    pointers: ['terminating', 'failedIndexes', 'ready'],
  },
  'io.k8s.api.batch.v1.PodFailurePolicy': { tags: { rules: 1 } },
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': {
    tags: { containerName: 1, operator: 2, values: 3 },
    pointers: ['containerName'],
  },
  'io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern': { tags: { type: 1, status: 2 } },
  'io.k8s.api.batch.v1.PodFailurePolicyRule': { tags: { action: 1, onExitCodes: 2, onPodConditions: 3 } },
  'io.k8s.api.batch.v1.SuccessPolicy': { tags: { rules: 1 } },
  'io.k8s.api.batch.v1.SuccessPolicyRule': {
    tags: { succeededIndexes: 1, succeededCount: 2 },
    pointers: ['succeededIndexes', 'succeededCount'],
  },
  'io.k8s.api.batch.v1.UncountedTerminatedPods': { tags: { succeeded: 1, failed: 2 } },
};

/** batch/v1 Job. */
export const JOB: KindDefinition = {
  resource: resourceInfo({
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    namespaced: true,
    categories: ['all'],
    subresources: [STATUS],
  }),
  // batch/v1 keeps the pre-garbage-collector default: deleting a Job leaves its pods.
  strategy: {
    specGeneration: true,
    gcPolicy: 'OrphanDependents',
    initialStatus: () => ({}),
    defaults: defaultJob,
    prepareForCreate: generateJobSelector,
    validate: validateJob,
    validateUpdate: validateJobUpdate,
    validateStatusUpdate: validateJobStatusUpdate,
    warningsOnCreate: (job) => [...podNamePrefixWarnings(job), ...jobSpecWarnings(job.spec, 'spec')],
    // Only a spec change (a new generation) is warned about again.
    warningsOnUpdate: (next, old) => (next.metadata.generation !== old.metadata.generation ? jobSpecWarnings(next.spec, 'spec') : []),
  },
  fieldSelectors: {
    conversion: {
      labels: new Set(['metadata.name', 'metadata.namespace', 'status.successful']),
      error: (label) => `field label ${goQuote(label)} not supported for batchv1.Job`,
    },
    attrs: (obj) => ({ 'status.successful': integerAttr(fieldAt(obj, 'status', 'succeeded')) }),
  },
  printer: JOB_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
