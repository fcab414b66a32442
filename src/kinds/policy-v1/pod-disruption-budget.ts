import {
  arrayOf,
  INT_OR_STRING,
  int32,
  int64,
  kindDefinition,
  LABEL_SELECTOR,
  listDefinition,
  ref,
  str,
  TIME,
} from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatusUpdate,
  validatePodDisruptionBudgetUpdate,
} from './pod-disruption-budget-validation.js';

const P = 'io.k8s.api.policy.v1.';
const CONDITION = 'io.k8s.apimachinery.pkg.apis.meta.v1.Condition';
/** intstr.IntOrString's String(): the number or the string as given. */
function intOrStringCell(value: unknown): string {
  if (typeof value === 'number') return String(Math.trunc(value));
  return typeof value === 'string' ? value : 'N/A';
}

const DEFINITIONS: Definitions = {
  [`${P}PodDisruptionBudget`]: kindDefinition({
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    description: 'PodDisruptionBudget bounds how many pods of a set voluntary disruptions (evictions) may take down at once.',
    properties: {
      spec: ref(`${P}PodDisruptionBudgetSpec`, 'The desired budget.'),
      status: ref(`${P}PodDisruptionBudgetStatus`, 'The budget as the disruption controller last observed it.'),
    },
  }),
  [`${P}PodDisruptionBudgetList`]: listDefinition('policy', 'v1', 'PodDisruptionBudget', `${P}PodDisruptionBudget`),
  [`${P}PodDisruptionBudgetSpec`]: {
    type: 'object',
    description: 'The pods a PodDisruptionBudget covers and how many of them must stay available.',
    properties: {
      maxUnavailable: ref(
        INT_OR_STRING,
        'Evictions are allowed while at most this many (or this percentage of) selected pods are unavailable.',
      ),
      minAvailable: ref(
        INT_OR_STRING,
        'Evictions are allowed while at least this many (or this percentage of) selected pods stay available.',
      ),
      selector: ref(LABEL_SELECTOR, 'The pods the budget covers; null selects none, {} every pod of the namespace.', {
        'x-kubernetes-patch-strategy': 'replace',
      }),
      unhealthyPodEvictionPolicy: str(
        'IfHealthyBudget (the behaviour when unset) or AlwaysAllow: when running but not ready pods may be evicted.',
        {
          enum: ['AlwaysAllow', 'IfHealthyBudget'],
        },
      ),
    },
  },
  [`${P}PodDisruptionBudgetStatus`]: {
    type: 'object',
    description: 'What the disruption controller last observed for a PodDisruptionBudget.',
    properties: {
      conditions: arrayOf(definitionRef(CONDITION), 'Conditions of the budget; the controller sets DisruptionAllowed.', {
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      }),
      currentHealthy: int32('Healthy pods now.'),
      desiredHealthy: int32('Healthy pods the budget requires.'),
      disruptedPods: {
        type: 'object',
        description: 'Pods the eviction subresource evicted that the controller has not yet seen deleted, with when.',
        additionalProperties: definitionRef(TIME),
      },
      disruptionsAllowed: int32('Pod disruptions allowed now.'),
      expectedPods: int32('Pods the budget counts.'),
      observedGeneration: int64('The generation this status describes.'),
    },
    required: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}PodDisruptionBudget`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}PodDisruptionBudgetList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}PodDisruptionBudgetSpec`]: {
    tags: { minAvailable: 1, selector: 2, maxUnavailable: 3, unhealthyPodEvictionPolicy: 4 },
    pointers: ['unhealthyPodEvictionPolicy'],
  },
  [`${P}PodDisruptionBudgetStatus`]: {
    tags: {
      observedGeneration: 1,
      disruptedPods: 2,
      disruptionsAllowed: 3,
      currentHealthy: 4,
      desiredHealthy: 5,
      expectedPods: 6,
      conditions: 7,
    },
  },
};

/** policy/v1 PodDisruptionBudget. Nothing is defaulted: an unset unhealthyPodEvictionPolicy stays unset. */
export const POD_DISRUPTION_BUDGET: KindDefinition = {
  resource: resourceInfo({
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: [STATUS],
  }),
  strategy: {
    specGeneration: true,
    initialStatus: () => ({}),
    statusZeroValues: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    validate: validatePodDisruptionBudget,
    validateUpdate: validatePodDisruptionBudgetUpdate,
    validateStatusUpdate: validatePodDisruptionBudgetStatusUpdate,
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Min Available', 'string', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
      column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
      AGE_COLUMN,
    ],
    row: (pdb, now) => [
      pdb.metadata.name ?? '',
      intOrStringCell(get(pdb, 'spec', 'minAvailable')),
      intOrStringCell(get(pdb, 'spec', 'maxUnavailable')),
      integer(get(pdb, 'status', 'disruptionsAllowed')),
      age(pdb.metadata.creationTimestamp, now),
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
