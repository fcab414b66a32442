import { definitionRef, type Definitions } from '../../openapi/schema.js';
import {
  arrayOf,
  bool,
  conditionDefinition,
  int32,
  int64,
  INT_OR_STRING,
  kindDefinition,
  LABEL_SELECTOR,
  listDefinition,
  mergeMapList,
  PERSISTENT_VOLUME_CLAIM,
  POD_TEMPLATE_SPEC,
  ref,
  str,
  TIME,
} from '../../openapi/builders/group-builders.js';

/** apps/v1: Deployment, ReplicaSet, StatefulSet and DaemonSet. */

const P = 'io.k8s.api.apps.v1.';

const SELECTOR = (what: string) => ref(LABEL_SELECTOR, `Label query over the pods ${what}; must match the template's labels.`);
const TEMPLATE = (what: string) => ref(POD_TEMPLATE_SPEC, `Pod template ${what}.`);
const MIN_READY = int32('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.');
const OBSERVED_GENERATION = int64('Most recent generation observed by the controller.');
const COLLISION_COUNT = int32('Hash collision count, used by the controller to name the newest revision.');

export const APPS_V1_DEFINITIONS: Definitions = {
  [`${P}Deployment`]: kindDefinition({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    description: 'Deployment declaratively manages the rollout of Pods through ReplicaSets.',
    properties: {
      spec: ref(`${P}DeploymentSpec`, 'Desired behavior of the Deployment.'),
      status: ref(`${P}DeploymentStatus`, 'Most recently observed status of the Deployment.'),
    },
  }),
  [`${P}DeploymentList`]: listDefinition('apps', 'v1', 'Deployment', `${P}Deployment`),
  [`${P}DeploymentSpec`]: {
    type: 'object',
    description: 'Desired behavior of a Deployment.',
    properties: {
      minReadySeconds: MIN_READY,
      paused: bool('Whether the rollout is paused.'),
      progressDeadlineSeconds: int32('Seconds the rollout may make no progress before it is reported as failed. Defaults to 600.'),
      replicas: int32('Desired number of pods. Defaults to 1.'),
      revisionHistoryLimit: int32('Number of old ReplicaSets kept for rollback. Defaults to 10.'),
      selector: SELECTOR('managed by this Deployment'),
      strategy: ref(`${P}DeploymentStrategy`, 'How existing pods are replaced by new ones.', {
        'x-kubernetes-patch-strategy': 'retainKeys',
      }),
      template: TEMPLATE('for the pods this Deployment creates; restartPolicy must be Always'),
    },
    required: ['selector', 'template'],
  },
  [`${P}DeploymentStrategy`]: {
    type: 'object',
    description: 'How a Deployment replaces existing pods with new ones.',
    properties: {
      rollingUpdate: ref(`${P}RollingUpdateDeployment`, 'Rolling update parameters; only used when type is RollingUpdate.'),
      type: str('Recreate or RollingUpdate. Defaults to RollingUpdate.'),
    },
  },
  [`${P}RollingUpdateDeployment`]: {
    type: 'object',
    description: 'Parameters of a Deployment rolling update.',
    properties: {
      maxSurge: ref(INT_OR_STRING, 'Pods allowed above the desired count during the update, as a number or percentage. Defaults to 25%.'),
      maxUnavailable: ref(INT_OR_STRING, 'Pods allowed to be unavailable during the update, as a number or percentage. Defaults to 25%.'),
    },
  },
  [`${P}DeploymentStatus`]: {
    type: 'object',
    description: 'Most recently observed status of a Deployment.',
    properties: {
      availableReplicas: int32('Targeted pods that have been ready for at least minReadySeconds.'),
      collisionCount: COLLISION_COUNT,
      conditions: mergeMapList(definitionRef(`${P}DeploymentCondition`), 'type', "Latest observations of the Deployment's state."),
      observedGeneration: OBSERVED_GENERATION,
      readyReplicas: int32('Targeted pods with a Ready condition.'),
      replicas: int32('Non-terminated pods targeted by this Deployment.'),
      unavailableReplicas: int32('Pods still missing for the Deployment to be fully available.'),
      updatedReplicas: int32('Non-terminated targeted pods that run the desired template.'),
    },
  },
  [`${P}DeploymentCondition`]: conditionDefinition('State of a Deployment at a point in time.', {
    lastUpdateTime: ref(TIME, 'When the condition was last updated.'),
  }),

  [`${P}ReplicaSet`]: kindDefinition({
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    description: 'ReplicaSet keeps a given number of pod replicas running.',
    properties: {
      spec: ref(`${P}ReplicaSetSpec`, 'Desired behavior of the ReplicaSet.'),
      status: ref(`${P}ReplicaSetStatus`, 'Most recently observed status of the ReplicaSet.'),
    },
  }),
  [`${P}ReplicaSetList`]: listDefinition('apps', 'v1', 'ReplicaSet', `${P}ReplicaSet`),
  [`${P}ReplicaSetSpec`]: {
    type: 'object',
    description: 'Desired behavior of a ReplicaSet.',
    properties: {
      minReadySeconds: MIN_READY,
      replicas: int32('Desired number of replicas. Defaults to 1.'),
      selector: SELECTOR('counted towards the replicas'),
      template: TEMPLATE('used when too few replicas exist'),
    },
    required: ['selector'],
  },
  [`${P}ReplicaSetStatus`]: {
    type: 'object',
    description: 'Most recently observed status of a ReplicaSet.',
    properties: {
      availableReplicas: int32('Replicas that have been ready for at least minReadySeconds.'),
      conditions: mergeMapList(definitionRef(`${P}ReplicaSetCondition`), 'type', "Latest observations of the ReplicaSet's state."),
      fullyLabeledReplicas: int32("Pods whose labels match the template's labels."),
      observedGeneration: OBSERVED_GENERATION,
      readyReplicas: int32('Targeted pods with a Ready condition.'),
      replicas: int32('Most recently observed number of replicas.'),
    },
    required: ['replicas'],
  },
  [`${P}ReplicaSetCondition`]: conditionDefinition('State of a ReplicaSet at a point in time.'),

  [`${P}StatefulSet`]: kindDefinition({
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    description: 'StatefulSet manages pods with stable network identities and stable storage.',
    properties: {
      spec: ref(`${P}StatefulSetSpec`, 'Desired identities of the pods in the set.'),
      status: ref(`${P}StatefulSetStatus`, 'Current status of the pods in the set.'),
    },
  }),
  [`${P}StatefulSetList`]: listDefinition('apps', 'v1', 'StatefulSet', `${P}StatefulSet`),
  [`${P}StatefulSetSpec`]: {
    type: 'object',
    description: 'Desired behavior of a StatefulSet.',
    properties: {
      minReadySeconds: MIN_READY,
      ordinals: ref(`${P}StatefulSetOrdinals`, 'How replica indices are numbered; the first replica gets index 0 by default.'),
      persistentVolumeClaimRetentionPolicy: ref(
        `${P}StatefulSetPersistentVolumeClaimRetentionPolicy`,
        'What happens to claims created from volumeClaimTemplates when the set is deleted or scaled down.',
      ),
      podManagementPolicy: str('OrderedReady (default) or Parallel pod creation and deletion.'),
      replicas: int32('Desired number of replicas. Defaults to 1.'),
      revisionHistoryLimit: int32('Number of revisions kept in the history. Defaults to 10.'),
      selector: SELECTOR('counted towards the replicas'),
      serviceName: str('Name of the Service that governs the network identity of the set.'),
      template: TEMPLATE('stamped out for each replica; restartPolicy must be Always'),
      updateStrategy: ref(`${P}StatefulSetUpdateStrategy`, 'How pods are updated when the template changes.'),
      volumeClaimTemplates: arrayOf(definitionRef(PERSISTENT_VOLUME_CLAIM), 'Claims that pods of the set may reference by name.', {
        'x-kubernetes-list-type': 'atomic',
      }),
    },
    required: ['selector', 'template', 'serviceName'],
  },
  [`${P}StatefulSetOrdinals`]: {
    type: 'object',
    description: 'How replica ordinals are assigned in a StatefulSet.',
    properties: {
      start: int32('Index of the first replica. Defaults to 0.'),
    },
  },
  [`${P}StatefulSetPersistentVolumeClaimRetentionPolicy`]: {
    type: 'object',
    description: 'Lifecycle policy for claims created from StatefulSet volumeClaimTemplates.',
    properties: {
      whenDeleted: str('Retain (default) or Delete the claims when the StatefulSet is deleted.'),
      whenScaled: str('Retain (default) or Delete the claims of pods removed by a scale down.'),
    },
  },
  [`${P}StatefulSetUpdateStrategy`]: {
    type: 'object',
    description: 'How the StatefulSet controller updates pods.',
    properties: {
      rollingUpdate: ref(`${P}RollingUpdateStatefulSetStrategy`, 'Rolling update parameters; only used when type is RollingUpdate.'),
      type: str('RollingUpdate or OnDelete. Defaults to RollingUpdate.'),
    },
  },
  [`${P}RollingUpdateStatefulSetStrategy`]: {
    type: 'object',
    description: 'Parameters of a StatefulSet rolling update.',
    properties: {
      maxUnavailable: ref(INT_OR_STRING, 'Pods allowed to be unavailable during the update, as a number or percentage. Defaults to 1.'),
      partition: int32('Only pods with an ordinal at or above this value are updated. Defaults to 0.'),
    },
  },
  [`${P}StatefulSetStatus`]: {
    type: 'object',
    description: 'Current state of a StatefulSet.',
    properties: {
      availableReplicas: int32('Targeted pods that have been ready for at least minReadySeconds.'),
      collisionCount: COLLISION_COUNT,
      conditions: mergeMapList(definitionRef(`${P}StatefulSetCondition`), 'type', "Latest observations of the StatefulSet's state."),
      currentReplicas: int32('Pods created from the currentRevision.'),
      currentRevision: str('Revision that generated the pods in [0, currentReplicas).'),
      observedGeneration: OBSERVED_GENERATION,
      readyReplicas: int32('Pods of the set with a Ready condition.'),
      replicas: int32('Pods created by the StatefulSet controller.'),
      updateRevision: str('Revision that generated the pods in [replicas-updatedReplicas, replicas).'),
      updatedReplicas: int32('Pods created from the updateRevision.'),
    },
    required: ['replicas'],
  },
  [`${P}StatefulSetCondition`]: conditionDefinition('State of a StatefulSet at a point in time.'),

  [`${P}DaemonSet`]: kindDefinition({
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    description: 'DaemonSet runs a copy of a pod on every eligible node.',
    properties: {
      spec: ref(`${P}DaemonSetSpec`, 'Desired behavior of the DaemonSet.'),
      status: ref(`${P}DaemonSetStatus`, 'Most recently observed status of the DaemonSet.'),
    },
  }),
  [`${P}DaemonSetList`]: listDefinition('apps', 'v1', 'DaemonSet', `${P}DaemonSet`),
  [`${P}DaemonSetSpec`]: {
    type: 'object',
    description: 'Desired behavior of a DaemonSet.',
    properties: {
      minReadySeconds: MIN_READY,
      revisionHistoryLimit: int32('Number of old revisions kept for rollback. Defaults to 10.'),
      selector: SELECTOR('managed by this DaemonSet'),
      template: TEMPLATE('run on each eligible node; restartPolicy must be Always'),
      updateStrategy: ref(`${P}DaemonSetUpdateStrategy`, 'How existing daemon pods are replaced by new ones.'),
    },
    required: ['selector', 'template'],
  },
  [`${P}DaemonSetUpdateStrategy`]: {
    type: 'object',
    description: 'How a DaemonSet replaces existing pods.',
    properties: {
      rollingUpdate: ref(`${P}RollingUpdateDaemonSet`, 'Rolling update parameters; only used when type is RollingUpdate.'),
      type: str('RollingUpdate or OnDelete. Defaults to RollingUpdate.'),
    },
  },
  [`${P}RollingUpdateDaemonSet`]: {
    type: 'object',
    description: 'Parameters of a DaemonSet rolling update.',
    properties: {
      maxSurge: ref(INT_OR_STRING, 'Nodes that may run an updated pod next to the old one, as a number or percentage. Defaults to 0.'),
      maxUnavailable: ref(
        INT_OR_STRING,
        'Daemon pods allowed to be unavailable during the update, as a number or percentage. Defaults to 1.',
      ),
    },
  },
  [`${P}DaemonSetStatus`]: {
    type: 'object',
    description: 'Most recently observed status of a DaemonSet.',
    properties: {
      collisionCount: COLLISION_COUNT,
      conditions: mergeMapList(definitionRef(`${P}DaemonSetCondition`), 'type', "Latest observations of the DaemonSet's state."),
      currentNumberScheduled: int32('Nodes that run at least one daemon pod and should.'),
      desiredNumberScheduled: int32('Nodes that should run the daemon pod.'),
      numberAvailable: int32('Nodes that should run the daemon pod and have one available.'),
      numberMisscheduled: int32('Nodes that run the daemon pod but should not.'),
      numberReady: int32('Nodes that should run the daemon pod and have one with a Ready condition.'),
      numberUnavailable: int32('Nodes that should run the daemon pod and have none available.'),
      observedGeneration: OBSERVED_GENERATION,
      updatedNumberScheduled: int32('Nodes that run the updated daemon pod.'),
    },
    required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'],
  },
  [`${P}DaemonSetCondition`]: conditionDefinition('State of a DaemonSet at a point in time.'),
};
