import { isObject, type KubeObject, objects } from '../../api/types.js';
import {
  arrayOf,
  conditionDefinition,
  int32,
  INT_OR_STRING,
  kindDefinition,
  listDefinition,
  mergeMapList,
  PERSISTENT_VOLUME_CLAIM,
  ref,
  str,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, containerCells } from '../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { defaultWorkload } from '../core-v1/types/defaulting.js';
import { desiredReplicas } from '../core-v1/types/workload-printing.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';
import { COLLISION_COUNT, MIN_READY, OBSERVED_GENERATION, P, SELECTOR, TEMPLATE } from './schema-parts.js';
import { validateStatefulSet, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from './stateful-set-validation.js';

const STATEFUL_SET_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Ready', 'string', 'Number of the pod with ready state'), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  row(obj, now) {
    const [names, images] = containerCells(get(obj, 'spec', 'template', 'spec'));
    return [
      obj.metadata.name ?? '',
      `${integer(get(obj, 'status', 'readyReplicas'))}/${desiredReplicas(get(obj, 'spec', 'replicas'))}`,
      age(obj.metadata.creationTimestamp, now),
      names,
      images,
    ];
  },
};

/** StatefulSet volume claim templates are whole claims, defaulted as a created claim would be. */
/**
 * SetDefaults_StatefulSet's update strategy: an unset type becomes RollingUpdate with a parameters object, and a
 * RollingUpdate's parameters get partition 0.
 */
function defaultUpdateStrategy(s: Record<string, unknown>): void {
  if (!isObject(s.updateStrategy)) s.updateStrategy = {};
  const strategy = s.updateStrategy as Record<string, unknown>;
  if (strategy.type === undefined || strategy.type === '') {
    strategy.type = 'RollingUpdate';
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  }
  if (strategy.type === 'RollingUpdate' && isObject(strategy.rollingUpdate)) strategy.rollingUpdate.partition ??= 0;
}

/** Each unset (or empty) persistentVolumeClaimRetentionPolicy rule defaults to Retain. */
function defaultRetentionPolicy(s: Record<string, unknown>): void {
  if (!isObject(s.persistentVolumeClaimRetentionPolicy)) s.persistentVolumeClaimRetentionPolicy = {};
  const policy = s.persistentVolumeClaimRetentionPolicy as Record<string, unknown>;
  for (const rule of ['whenDeleted', 'whenScaled']) if (policy[rule] === undefined || policy[rule] === '') policy[rule] = 'Retain';
}

function rollingUpdateOf(obj: KubeObject): Record<string, unknown> | undefined {
  const rollingUpdate = get(obj, 'spec', 'updateStrategy', 'rollingUpdate');
  return isObject(rollingUpdate) ? rollingUpdate : undefined;
}

/**
 * dropStatefulSetDisabledFields: rollingUpdate.maxUnavailable belongs to the MaxUnavailableStatefulSet gate, off in
 * 1.32, so it is dropped unless the stored object already uses it.
 */
function dropMaxUnavailable(next: KubeObject, old?: KubeObject): void {
  const inUse = old !== undefined && rollingUpdateOf(old)?.maxUnavailable !== undefined;
  const rollingUpdate = rollingUpdateOf(next);
  if (!inUse && rollingUpdate !== undefined) delete rollingUpdate.maxUnavailable;
}

function defaultClaimTemplates(s: Record<string, unknown>): void {
  for (const claim of objects(s.volumeClaimTemplates)) {
    if (!isObject(claim.spec)) claim.spec = {};
    (claim.spec as Record<string, unknown>).volumeMode ??= 'Filesystem';
    if (!isObject(claim.status)) claim.status = {};
    const status = claim.status as Record<string, unknown>;
    if (status.phase === undefined || status.phase === '') status.phase = 'Pending';
  }
}

const DEFINITIONS: Definitions = {
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
};

const FIELD_NUMBERS: FieldNumberTable = {
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
    tags: {
      replicas: 1,
      selector: 2,
      template: 3,
      volumeClaimTemplates: 4,
      serviceName: 5,
      podManagementPolicy: 6,
      updateStrategy: 7,
      revisionHistoryLimit: 8,
      minReadySeconds: 9,
      persistentVolumeClaimRetentionPolicy: 10,
      ordinals: 11,
    },
    pointers: ['replicas', 'revisionHistoryLimit'],
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    tags: {
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 3,
      currentReplicas: 4,
      updatedReplicas: 5,
      currentRevision: 6,
      updateRevision: 7,
      collisionCount: 9,
      conditions: 10,
      availableReplicas: 11,
    },
    pointers: ['collisionCount'],
  },
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': { tags: { type: 1, rollingUpdate: 2 } },
};

/** apps/v1 StatefulSet. */
export const STATEFUL_SET: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
    // A StatefulSet's name becomes its pods' hostnames, so it must be a DNS label (since v1.27).
    nameFormat: 'dns1123-label',
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: { replicas: 0, availableReplicas: 0 },
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        defaultClaimTemplates(s);
        s.replicas ??= 1;
        s.podManagementPolicy ??= 'OrderedReady';
        defaultUpdateStrategy(s);
        s.revisionHistoryLimit ??= 10;
        defaultRetentionPolicy(s);
      }),
    prepareForCreate: (obj) => dropMaxUnavailable(obj),
    prepareForUpdate: dropMaxUnavailable,
    validate: validateStatefulSet,
    validateUpdate: validateStatefulSetUpdate,
    validateStatusUpdate: validateStatefulSetStatusUpdate,
  },
  printer: STATEFUL_SET_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
