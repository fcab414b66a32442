import type { FieldNumberTable } from './types.js';

export const APPS_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.apps.v1.DaemonSet': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.apps.v1.DaemonSetCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
  'io.k8s.api.apps.v1.DaemonSetList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.apps.v1.DaemonSetSpec': {
    tags: { selector: 1, template: 2, updateStrategy: 3, minReadySeconds: 4, revisionHistoryLimit: 6 },
    pointers: ['revisionHistoryLimit'],
  },
  'io.k8s.api.apps.v1.DaemonSetStatus': {
    tags: { currentNumberScheduled: 1, numberMisscheduled: 2, desiredNumberScheduled: 3, numberReady: 4, observedGeneration: 5, updatedNumberScheduled: 6, numberAvailable: 7, numberUnavailable: 8, collisionCount: 9, conditions: 10 },
    pointers: ['collisionCount'],
  },
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': { tags: { type: 1, rollingUpdate: 2 } },
  'io.k8s.api.apps.v1.Deployment': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.apps.v1.DeploymentCondition': {
    tags: { type: 1, status: 2, reason: 4, message: 5, lastUpdateTime: 6, lastTransitionTime: 7 },
  },
  'io.k8s.api.apps.v1.DeploymentList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    tags: { replicas: 1, selector: 2, template: 3, strategy: 4, minReadySeconds: 5, revisionHistoryLimit: 6, paused: 7, progressDeadlineSeconds: 9 },
    pointers: ['replicas', 'revisionHistoryLimit', 'progressDeadlineSeconds'],
  },
  'io.k8s.api.apps.v1.DeploymentStatus': {
    tags: { observedGeneration: 1, replicas: 2, updatedReplicas: 3, availableReplicas: 4, unavailableReplicas: 5, conditions: 6, readyReplicas: 7, collisionCount: 8 },
    pointers: ['collisionCount'],
  },
  'io.k8s.api.apps.v1.DeploymentStrategy': { tags: { type: 1, rollingUpdate: 2 } },
  'io.k8s.api.apps.v1.ReplicaSet': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.apps.v1.ReplicaSetCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
  'io.k8s.api.apps.v1.ReplicaSetList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.apps.v1.ReplicaSetSpec': {
    tags: { replicas: 1, selector: 2, template: 3, minReadySeconds: 4 },
    pointers: ['replicas'],
  },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    tags: { replicas: 1, fullyLabeledReplicas: 2, observedGeneration: 3, readyReplicas: 4, availableReplicas: 5, conditions: 6 },
  },
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet': { tags: { maxUnavailable: 1, maxSurge: 2 } },
  'io.k8s.api.apps.v1.RollingUpdateDeployment': { tags: { maxUnavailable: 1, maxSurge: 2 } },
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy': {
    tags: { partition: 1, maxUnavailable: 2 },
    pointers: ['partition'],
  },
  'io.k8s.api.apps.v1.StatefulSet': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.apps.v1.StatefulSetCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
  'io.k8s.api.apps.v1.StatefulSetList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.apps.v1.StatefulSetOrdinals': { tags: { start: 1 } },
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy': { tags: { whenDeleted: 1, whenScaled: 2 } },
  'io.k8s.api.apps.v1.StatefulSetSpec': {
    tags: { replicas: 1, selector: 2, template: 3, volumeClaimTemplates: 4, serviceName: 5, podManagementPolicy: 6, updateStrategy: 7, revisionHistoryLimit: 8, minReadySeconds: 9, persistentVolumeClaimRetentionPolicy: 10, ordinals: 11 },
    pointers: ['replicas', 'revisionHistoryLimit'],
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    tags: { observedGeneration: 1, replicas: 2, readyReplicas: 3, currentReplicas: 4, updatedReplicas: 5, currentRevision: 6, updateRevision: 7, collisionCount: 9, conditions: 10, availableReplicas: 11 },
    pointers: ['collisionCount'],
  },
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': { tags: { type: 1, rollingUpdate: 2 } },
};
