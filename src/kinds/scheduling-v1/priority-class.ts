import { type FieldError, fieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { bool, int32, kindDefinition, listDefinition, str } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const valueDoc =
  'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.';
const globalDefaultDoc =
  'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.';
const preemptionPolicyDoc =
  'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.';

const SYSTEM_PREFIX = 'system-';
/** Values above this are reserved for the system classes. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
export const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** The classes kube-apiserver creates at start (scheduling/bootstrap-system-priority-classes) and refuses to delete. */
export const SYSTEM_PRIORITY_CLASSES: readonly KubeObject[] = [
  {
    metadata: { name: 'system-node-critical' },
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    metadata: { name: 'system-cluster-critical' },
    value: SYSTEM_CRITICAL_PRIORITY,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** Why a class with a reserved name is not one of the system classes, or undefined when it is. */
function notSystemClass(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((pc) => pc.metadata.name === name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${String(known.value)}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

function validatePriorityClass(pc: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = typeof pc.value === 'number' ? pc.value : 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const why = notSystemClass(name, value, pc.globalDefault === true);
    if (why !== undefined) {
      errors.push(
        fieldError.forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(fieldError.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = pc.preemptionPolicy;
  if (typeof policy === 'string') {
    if (policy === '') errors.push(fieldError.required('preemptionPolicy'));
    else if (!PREEMPTION_POLICIES.includes(policy)) errors.push(fieldError.notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  }
  return errors;
}

/** Name, value and preemption policy are fixed once created; the rest (description, default flag, labels) may change. */
function validatePriorityClassUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  if (next.value !== old.value) errors.push(fieldError.forbidden('value', 'may not be changed in an update.'));
  if (next.preemptionPolicy !== old.preemptionPolicy) {
    errors.push(fieldError.invalid('preemptionPolicy', next.preemptionPolicy ?? null, 'field is immutable'));
  }
  return errors;
}

const P = 'io.k8s.api.scheduling.v1.';

const DEFINITIONS: Definitions = {
  [`${P}PriorityClass`]: kindDefinition({
    group: 'scheduling.k8s.io',
    version: 'v1',
    kind: 'PriorityClass',
    description: 'PriorityClass maps a class name, which pods name in spec.priorityClassName, to a priority value.',
    properties: {
      description: str('Guidance on when pods should use this class.'),
      globalDefault: bool('Whether pods without a class get this priority; with several defaults the lowest value applies.'),
      preemptionPolicy: str('Never or PreemptLowerPriority (the default): whether pods of this class preempt lower-priority pods.', {
        enum: ['Never', 'PreemptLowerPriority'],
      }),
      value: int32('The priority pods of this class receive.'),
    },
    required: ['value'],
  }),
  [`${P}PriorityClassList`]: listDefinition('scheduling.k8s.io', 'v1', 'PriorityClass', `${P}PriorityClass`),
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}PriorityClass`]: {
    tags: { metadata: 1, value: 2, globalDefault: 3, description: 4, preemptionPolicy: 5 },
    pointers: ['preemptionPolicy'],
  },
  [`${P}PriorityClassList`]: { tags: { metadata: 1, items: 2 } },
};

/** scheduling.k8s.io/v1 PriorityClass. */
export const PRIORITY_CLASS: KindDefinition = {
  resource: resourceInfo({
    group: 'scheduling.k8s.io',
    version: 'v1',
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    namespaced: false,
    shortNames: ['pc'],
  }),
  strategy: {
    defaults: (pc) => {
      pc.preemptionPolicy ??= DEFAULT_PREEMPTION_POLICY;
    },
    // The strategy starts every class at generation 1 and never bumps it.
    prepareForCreate: (pc) => {
      pc.metadata.generation = 1;
    },
    validate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
    deleteRefusal: (name) =>
      SYSTEM_PRIORITY_CLASSES.some((pc) => pc.metadata.name === name) ? 'this is a system priority class and cannot be deleted' : undefined,
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Value', 'integer', valueDoc),
      column('Global-Default', 'boolean', globalDefaultDoc),
      AGE_COLUMN,
      column('PreemptionPolicy', 'string', preemptionPolicyDoc),
    ],
    row: (pc, now) => [
      pc.metadata.name ?? '',
      typeof pc.value === 'number' ? Math.trunc(pc.value) : 0,
      pc.globalDefault === true,
      age(pc.metadata.creationTimestamp, now),
      typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : '',
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
