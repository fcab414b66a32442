import { isObject, type KubeObject } from '../../api/types.js';
import {
  ATOMIC_STRUCT,
  CORE,
  core,
  coreArray,
  coreKind,
  int32,
  int64,
  mergeByKey,
  object,
  str,
  stringMap,
  time,
} from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { formatLabels } from '../../tables/cell-format.js';
import type { Printer } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, integerAttr, notSupported } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';
import { specOf } from './types/defaulting.js';
import { podNamePrefixWarnings } from '../apps-v1/workload-validation.js';
import {
  validateReplicationController,
  validateReplicationControllerStatusUpdate,
  validateReplicationControllerUpdate,
} from './replication-controller-validation.js';
import { defaultPodTemplate } from './types/pod-defaults.js';
import { replicatedPrinter } from './types/workload-printing.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const replicationControllerSpecReplicas =
  'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller';
const replicationControllerSpecSelector =
  'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';
const replicationControllerStatusReadyReplicas = 'The number of ready replicas for this replication controller.';
const replicationControllerStatusReplicas =
  'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller';

const REPLICATION_CONTROLLER_PRINTER: Printer = replicatedPrinter(
  {
    desired: replicationControllerSpecReplicas,
    current: replicationControllerStatusReplicas,
    ready: replicationControllerStatusReadyReplicas,
    selector: replicationControllerSpecSelector,
  },
  formatLabels,
);

const REPLICATION_CONTROLLER_TYPES = coreKind({
  kind: 'ReplicationController',
  description: 'Keeps a given number of copies of a pod running.',
  properties: {
    spec: core('ReplicationControllerSpec', 'Desired behaviour of the replication controller.'),
    status: core('ReplicationControllerStatus', 'Most recently observed status of the replication controller; may lag behind. Read-only.'),
  },
  listDescription: 'List of ReplicationController objects.',
  itemsDescription: 'The replication controllers.',
});

/** A ReplicationController selects, and is labelled with, its template's labels unless it names its own. */
function defaultReplicationController(obj: KubeObject): void {
  const s = specOf(obj);
  const template = isObject(s.template) ? s.template : undefined;
  const labels = template !== undefined && isObject(template.metadata) ? template.metadata.labels : undefined;
  if (isObject(labels)) {
    if (!isObject(s.selector) || Object.keys(s.selector).length === 0) s.selector = { ...labels };
    const own = obj.metadata.labels;
    if (own === undefined || Object.keys(own).length === 0) obj.metadata.labels = { ...(labels as Record<string, string>) };
  }
  s.replicas ??= 1;
  defaultPodTemplate(s.template);
}

const DEFINITIONS: Definitions = {
  ...REPLICATION_CONTROLLER_TYPES,
  [`${CORE}ReplicationControllerSpec`]: object('Desired behaviour of a replication controller.', {
    minReadySeconds: int32('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.'),
    replicas: int32('Desired number of replicas. Defaults to 1.'),
    selector: stringMap(
      'Labels the counted pods must carry; defaults to the template’s labels. Must match the template’s labels when both are set.',
      ATOMIC_STRUCT,
    ),
    template: core('PodTemplateSpec', 'Pod template used when too few replicas exist.'),
  }),
  [`${CORE}ReplicationControllerStatus`]: object(
    'Most recently observed status of a replication controller.',
    {
      availableReplicas: int32('Replicas that have been ready for at least minReadySeconds.'),
      conditions: coreArray(
        'ReplicationControllerCondition',
        'Latest observations of the replication controller’s state.',
        mergeByKey('type'),
      ),
      fullyLabeledReplicas: int32('Pods carrying all the labels of the pod template.'),
      observedGeneration: int64('Generation of the most recently observed replication controller.'),
      readyReplicas: int32('Targeted pods with a Ready condition.'),
      replicas: int32('Most recently observed number of replicas.'),
    },
    { required: ['replicas'] },
  ),
  [`${CORE}ReplicationControllerCondition`]: object(
    'State of a replication controller at one point in time.',
    {
      lastTransitionTime: time('Last time the condition changed from one status to another.'),
      message: str('Human-readable details about the transition.'),
      reason: str('Reason for the last transition.'),
      status: str('Status of the condition: True, False or Unknown.'),
      type: str('Type of the condition, e.g. ReplicaFailure.'),
    },
    { required: ['type', 'status'] },
  ),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.ReplicationController': { tags: { metadata: 1, spec: 2, status: 3 } },
  'io.k8s.api.core.v1.ReplicationControllerCondition': {
    tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
  'io.k8s.api.core.v1.ReplicationControllerList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.core.v1.ReplicationControllerSpec': {
    tags: { replicas: 1, selector: 2, template: 3, minReadySeconds: 4 },
    pointers: ['replicas'],
  },
  'io.k8s.api.core.v1.ReplicationControllerStatus': {
    tags: { replicas: 1, fullyLabeledReplicas: 2, observedGeneration: 3, readyReplicas: 4, availableReplicas: 5, conditions: 6 },
  },
};

/** core/v1 ReplicationController. */
export const REPLICATION_CONTROLLER: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  strategy: {
    specGeneration: true,
    // core/v1 keeps the pre-garbage-collector default: deleting a controller leaves its pods.
    gcPolicy: 'OrphanDependents',
    initialStatus: () => ({}),
    statusZeroValues: { replicas: 0 },
    defaults: defaultReplicationController,
    validate: validateReplicationController,
    validateUpdate: validateReplicationControllerUpdate,
    validateStatusUpdate: validateReplicationControllerStatusUpdate,
    warningsOnCreate: podNamePrefixWarnings,
  },
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.name', 'metadata.namespace', 'status.replicas']), error: notSupported },
    attrs: (obj) => ({ 'status.replicas': integerAttr(fieldAt(obj, 'status', 'replicas')) }),
  },
  printer: REPLICATION_CONTROLLER_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
