import {
  bool,
  conditionDefinition,
  int32,
  INT_OR_STRING,
  kindDefinition,
  listDefinition,
  mergeMapList,
  ref,
  str,
  TIME,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, containerCells, deploymentSelector } from '../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { defaultWorkload } from '../core-v1/types/defaulting.js';
import { desiredReplicas } from '../core-v1/types/workload-printing.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';
import { defaultRollingStrategy } from './workload-defaults.js';
import { podNamePrefixWarnings } from './workload-validation.js';
import { validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate } from './deployment-validation.js';
import { COLLISION_COUNT, MIN_READY, OBSERVED_GENERATION, P, SELECTOR, TEMPLATE } from './schema-parts.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const deploymentSpecSelector =
  'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.';
const deploymentStatusAvailableReplicas =
  'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.';
const deploymentStatusUpdatedReplicas =
  'Total number of non-terminating pods targeted by this deployment that have the desired template spec.';

const DEPLOYMENT_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', deploymentStatusUpdatedReplicas),
    column('Available', 'string', deploymentStatusAvailableReplicas),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', deploymentSpecSelector, { wide: true }),
  ],
  row(obj, now) {
    const [names, images] = containerCells(get(obj, 'spec', 'template', 'spec'));
    return [
      obj.metadata.name ?? '',
      `${integer(get(obj, 'status', 'readyReplicas'))}/${desiredReplicas(get(obj, 'spec', 'replicas'))}`,
      integer(get(obj, 'status', 'updatedReplicas')),
      integer(get(obj, 'status', 'availableReplicas')),
      age(obj.metadata.creationTimestamp, now),
      names,
      images,
      deploymentSelector(get(obj, 'spec', 'selector')),
    ];
  },
};

const DEFINITIONS: Definitions = {
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
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.apps.v1.Deployment': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.apps.v1.DeploymentCondition': {
    tags: { type: 1, status: 2, reason: 4, message: 5, lastUpdateTime: 6, lastTransitionTime: 7 },
  },
  'io.k8s.api.apps.v1.DeploymentList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    tags: {
      replicas: 1,
      selector: 2,
      template: 3,
      strategy: 4,
      minReadySeconds: 5,
      revisionHistoryLimit: 6,
      paused: 7,
      progressDeadlineSeconds: 9,
    },
    pointers: ['replicas', 'revisionHistoryLimit', 'progressDeadlineSeconds'],
  },
  'io.k8s.api.apps.v1.DeploymentStatus': {
    tags: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 3,
      availableReplicas: 4,
      unavailableReplicas: 5,
      conditions: 6,
      readyReplicas: 7,
      collisionCount: 8,
    },
    pointers: ['collisionCount'],
  },
  'io.k8s.api.apps.v1.DeploymentStrategy': { tags: { type: 1, rollingUpdate: 2 } },
  'io.k8s.api.apps.v1.RollingUpdateDeployment': { tags: { maxUnavailable: 1, maxSurge: 2 } },
};

/** apps/v1 Deployment. */
export const DEPLOYMENT: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        s.replicas ??= 1;
        defaultRollingStrategy(s, 'strategy', { maxUnavailable: '25%', maxSurge: '25%' });
        s.revisionHistoryLimit ??= 10;
        s.progressDeadlineSeconds ??= 600;
      }),
    validate: validateDeployment,
    validateUpdate: validateDeploymentUpdate,
    validateStatusUpdate: validateDeploymentStatusUpdate,
    // deploymentStatusStrategy keeps only spec and labels: the controller writes its revision annotation this way
    // (R12.3). Generation stays the stored one, as no spec change happens here.
    resetForStatusUpdate: (next, old) => {
      next.spec = old.spec;
      next.metadata.generation = old.metadata.generation;
      if (old.metadata.labels === undefined) delete next.metadata.labels;
      else next.metadata.labels = old.metadata.labels;
    },
    warningsOnCreate: podNamePrefixWarnings,
  },
  printer: DEPLOYMENT_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
