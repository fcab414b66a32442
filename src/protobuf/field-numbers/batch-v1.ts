import type { FieldNumberTable } from './types.js';

export const BATCH_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.batch.v1.Job': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.batch.v1.JobCondition': {
    tags: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
  },
  'io.k8s.api.batch.v1.JobList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.batch.v1.JobSpec': {
    tags: { parallelism: 1, completions: 2, activeDeadlineSeconds: 3, selector: 4, manualSelector: 5, template: 6, backoffLimit: 7, ttlSecondsAfterFinished: 8, completionMode: 9, suspend: 10, podFailurePolicy: 11, backoffLimitPerIndex: 12, maxFailedIndexes: 13, podReplacementPolicy: 14, managedBy: 15, successPolicy: 16 },
    pointers: ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes', 'manualSelector', 'ttlSecondsAfterFinished', 'completionMode', 'suspend', 'podReplacementPolicy', 'managedBy'],
  },
  'io.k8s.api.batch.v1.JobStatus': {
    tags: { conditions: 1, startTime: 2, completionTime: 3, active: 4, succeeded: 5, failed: 6, completedIndexes: 7, uncountedTerminatedPods: 8, ready: 9, failedIndexes: 10, terminating: 11 },
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
