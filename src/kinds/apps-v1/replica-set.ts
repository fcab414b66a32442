import { conditionDefinition, int32, kindDefinition, listDefinition, mergeMapList, ref } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { formatLabelSelector } from '../../tables/cell-format.js';
import type { Printer } from '../../tables/printer.js';
import { defaultWorkload } from '../core-v1/types/defaulting.js';
import { replicatedPrinter } from '../core-v1/types/workload-printing.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, integerAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, SCALE, STATUS } from '../define/resource.js';
import { validateReplicaSet, validateReplicaSetStatusUpdate, validateReplicaSetUpdate } from './replica-set-validation.js';
import { MIN_READY, OBSERVED_GENERATION, P, SELECTOR, TEMPLATE } from './schema-parts.js';
import { podNamePrefixWarnings } from './workload-validation.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const replicaSetSpecReplicas =
  'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset';
const replicaSetSpecSelector =
  'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';
const replicaSetStatusReadyReplicas = 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.';
const replicaSetStatusReplicas =
  'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset';

const REPLICA_SET_PRINTER: Printer = replicatedPrinter(
  {
    desired: replicaSetSpecReplicas,
    current: replicaSetStatusReplicas,
    ready: replicaSetStatusReadyReplicas,
    selector: replicaSetSpecSelector,
  },
  formatLabelSelector,
);

const DEFINITIONS: Definitions = {
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
};

const FIELD_NUMBERS: FieldNumberTable = {
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
};

/** apps/v1 ReplicaSet. */
export const REPLICA_SET: KindDefinition = {
  resource: resourceInfo({
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: [SCALE, STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: { replicas: 0 },
    defaults: (obj) =>
      defaultWorkload(obj, (s) => {
        s.replicas ??= 1;
      }),
    validate: validateReplicaSet,
    validateUpdate: validateReplicaSetUpdate,
    validateStatusUpdate: validateReplicaSetStatusUpdate,
    warningsOnCreate: podNamePrefixWarnings,
  },
  // apps/v1 registers no field label conversion, so only metadata.name and metadata.namespace may be asked for.
  fieldSelectors: { attrs: (obj) => ({ 'status.replicas': integerAttr(fieldAt(obj, 'status', 'replicas')) }) },
  printer: REPLICA_SET_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
