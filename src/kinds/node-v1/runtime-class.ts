import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import { ATOMIC, ATOMIC_STRUCT, coreArray, object, quantityMap, str, stringMap } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import { isDns1123Label, isQualifiedName, isValidLabelValue } from '../../validation/names.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

const P = 'io.k8s.api.node.v1.';

const handlerOf = (rc: KubeObject): string => (typeof rc.handler === 'string' ? rc.handler : '');

/** ValidateRuntimeClass: the handler names a CRI configuration, so it must be a DNS label (an absent one is ""). */
function validateRuntimeClass(rc: KubeObject): FieldError[] {
  const handler = handlerOf(rc);
  const errs = isDns1123Label(handler).map((msg) => fieldError.invalid('handler', handler, msg));
  return [...errs, ...validateNodeSelector(rc)];
}

/** ValidateLabels on scheduling.nodeSelector: the errors name the map, not the key, as Kubernetes' do. */
function validateNodeSelector(rc: KubeObject): FieldError[] {
  const selector = isObject(rc.scheduling) && isObject(rc.scheduling.nodeSelector) ? rc.scheduling.nodeSelector : {};
  const path = 'scheduling.nodeSelector';
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(selector)) {
    errs.push(...isQualifiedName(key).map((msg) => fieldError.invalid(path, key, msg)));
    const text = typeof value === 'string' ? value : '';
    errs.push(...isValidLabelValue(text).map((msg) => fieldError.invalid(path, text, msg)));
  }
  return errs;
}

function validateRuntimeClassUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  return handlerOf(next) === handlerOf(old) ? [] : [fieldError.invalid('handler', handlerOf(next), 'field is immutable')];
}

const DEFINITIONS: Definitions = {
  [`${P}RuntimeClass`]: kindDefinition({
    group: 'node.k8s.io',
    version: 'v1',
    kind: 'RuntimeClass',
    description: 'RuntimeClass names a container runtime configuration that pods select with spec.runtimeClassName.',
    properties: {
      handler: str('The CRI configuration that runs the pods of this class; a DNS label, immutable.'),
      overhead: ref(`${P}Overhead`, 'Resources running a pod of this class costs beyond its containers.'),
      scheduling: ref(`${P}Scheduling`, 'Constraints keeping pods of this class on nodes that support it.'),
    },
    required: ['handler'],
  }),
  [`${P}RuntimeClassList`]: listDefinition('node.k8s.io', 'v1', 'RuntimeClass', `${P}RuntimeClass`),
  [`${P}Overhead`]: object('Resource overhead of running a pod of a RuntimeClass.', {
    podFixed: quantityMap('Fixed overhead added to every pod of the class.'),
  }),
  [`${P}Scheduling`]: object('Where pods of a RuntimeClass may be scheduled.', {
    nodeSelector: stringMap('Labels the nodes must carry; merged into each pod’s own nodeSelector.', ATOMIC_STRUCT),
    tolerations: coreArray('Toleration', 'Tolerations appended to each pod’s own.', ATOMIC),
  }),
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}RuntimeClass`]: { tags: { metadata: 1, handler: 2, overhead: 3, scheduling: 4 } },
  [`${P}RuntimeClassList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}Overhead`]: { tags: { podFixed: 1 } },
  [`${P}Scheduling`]: { tags: { nodeSelector: 1, tolerations: 2 } },
};

/** node.k8s.io/v1 RuntimeClass. */
export const RUNTIME_CLASS: KindDefinition = {
  resource: resourceInfo({ group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', plural: 'runtimeclasses', namespaced: false }),
  strategy: {
    validate: validateRuntimeClass,
    validateUpdate: validateRuntimeClassUpdate,
  },
  printer: {
    style: 'printer',
    // printers.go takes the Handler description from ObjectMeta's docs, which have no "handler": it is empty.
    columns: [NAME_COLUMN, column('Handler', 'string', ''), AGE_COLUMN],
    row: (rc, now) => [rc.metadata.name ?? '', handlerOf(rc), age(rc.metadata.creationTimestamp, now)],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
