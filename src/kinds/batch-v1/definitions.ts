import { definitionRef, type Definitions } from '../../openapi/schema.js';
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

/** batch/v1 Job. */

const P = 'io.k8s.api.batch.v1.';

export const BATCH_V1_DEFINITIONS: Definitions = {
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
