import { kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import { ATOMIC, ATOMIC_STRUCT, coreArray, object, quantityMap, str, stringMap } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { handlerOf, validateRuntimeClass, validateRuntimeClassUpdate } from './runtime-class-validation.js';

const P = 'io.k8s.api.node.v1.';

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
