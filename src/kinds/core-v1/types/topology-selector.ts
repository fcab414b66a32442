import { ATOMIC, CORE, coreArray, object, str, stringArray } from '../../../openapi/builders/shorthand.js';
import type { Definitions } from '../../../openapi/schema.js';
import type { FieldNumberTable } from '../../define/field-numbers.js';

/** core/v1's topology selector, which only StorageClass.allowedTopologies uses but core/v1 declares. */
export const CORE_V1_TOPOLOGY_SELECTOR_DEFINITIONS: Definitions = {
  [`${CORE}TopologySelectorTerm`]: object(
    'A topology term: its requirements are ANDed; an empty term selects nothing.',
    { matchLabelExpressions: coreArray('TopologySelectorLabelRequirement', 'Label requirements, ANDed.', ATOMIC) },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
  [`${CORE}TopologySelectorLabelRequirement`]: {
    ...object('A label key and the values it may take.', {
      key: str('The label key.'),
      values: stringArray('Values the label may take, ORed; at least one.'),
    }),
    required: ['key', 'values'],
  },
};

export const CORE_V1_TOPOLOGY_SELECTOR_FIELD_NUMBERS: FieldNumberTable = {
  [`${CORE}TopologySelectorTerm`]: { tags: { matchLabelExpressions: 1 } },
  [`${CORE}TopologySelectorLabelRequirement`]: { tags: { key: 1, values: 2 } },
};
