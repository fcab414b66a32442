import { isObject, type KubeObject } from '../../api/types.js';
import {
  conditionDefinition,
  int32,
  INT_OR_STRING,
  kindDefinition,
  listDefinition,
  mergeMapList,
  ref,
  str,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age, containerCells, formatLabels, formatLabelSelector } from '../../tables/cell-format.js';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { defaultWorkload } from '../core-v1/types/defaulting.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { validateDaemonSet, validateDaemonSetStatusUpdate, validateDaemonSetUpdate } from './daemon-set-validation.js';
import { COLLISION_COUNT, MIN_READY, OBSERVED_GENERATION, P, SELECTOR, TEMPLATE } from './schema-parts.js';
import { defaultRollingStrategy } from './workload-defaults.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const daemonSetSpecSelector =
  'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';
const daemonSetStatusCurrentNumberScheduled =
  'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/';
const daemonSetStatusDesiredNumberScheduled =
  'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/';
const daemonSetStatusNumberAvailable =
  'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)';
const daemonSetStatusNumberReady =
  'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.';
const daemonSetStatusUpdatedNumberScheduled = 'The total number of nodes that are running updated daemon pod';
const podSpecNodeSelector =
  "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/";

const DAEMON_SET_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', daemonSetStatusDesiredNumberScheduled),
    column('Current', 'integer', daemonSetStatusCurrentNumberScheduled),
    column('Ready', 'integer', daemonSetStatusNumberReady),
    column('Up-to-date', 'integer', daemonSetStatusUpdatedNumberScheduled),
    column('Available', 'integer', daemonSetStatusNumberAvailable),
    column('Node Selector', 'string', podSpecNodeSelector),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', daemonSetSpecSelector, { wide: true }),
  ],
  row(obj, now) {
    const podSpec = get(obj, 'spec', 'template', 'spec');
    const [names, images] = containerCells(podSpec);
    return [
      obj.metadata.name ?? '',
      integer(get(obj, 'status', 'desiredNumberScheduled')),
      integer(get(obj, 'status', 'currentNumberScheduled')),
      integer(get(obj, 'status', 'numberReady')),
      integer(get(obj, 'status', 'updatedNumberScheduled')),
      integer(get(obj, 'status', 'numberAvailable')),
      formatLabels(get(podSpec, 'nodeSelector')),
      age(obj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(get(obj, 'spec', 'selector')),
    ];
  },
};

const DEFINITIONS: Definitions = {
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

const FIELD_NUMBERS: FieldNumberTable = {
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
    tags: {
      currentNumberScheduled: 1,
      numberMisscheduled: 2,
      desiredNumberScheduled: 3,
      numberReady: 4,
      observedGeneration: 5,
      updatedNumberScheduled: 6,
      numberAvailable: 7,
      numberUnavailable: 8,
      collisionCount: 9,
      conditions: 10,
    },
    pointers: ['collisionCount'],
  },
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': { tags: { type: 1, rollingUpdate: 2 } },
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet': { tags: { maxUnavailable: 1, maxSurge: 2 } },
};

const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

function specTemplate(obj: KubeObject): unknown {
  return isObject(obj.spec) ? obj.spec.template : undefined;
}

/** apps/v1 DaemonSet. */
export const DAEMON_SET: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        defaultRollingStrategy(s, 'updateStrategy', { maxUnavailable: 1, maxSurge: 0 });
        s.revisionHistoryLimit ??= 10;
      }),
    // spec.templateGeneration lives in this annotation in apps/v1 (R12.10): 1 on create, raised by each template
    // change, and never settable by the writer.
    prepareForCreate: (obj) => {
      obj.metadata.annotations = { ...obj.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: '1' };
    },
    prepareForUpdate: (next, old) => {
      const stored = Number(old.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '0');
      const base = Number.isSafeInteger(stored) ? stored : 0;
      const changed = JSON.stringify(specTemplate(next)) !== JSON.stringify(specTemplate(old));
      next.metadata.annotations = { ...next.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(changed ? base + 1 : base) };
    },
    validate: validateDaemonSet,
    validateUpdate: validateDaemonSetUpdate,
    validateStatusUpdate: validateDaemonSetStatusUpdate,
  },
  printer: DAEMON_SET_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
