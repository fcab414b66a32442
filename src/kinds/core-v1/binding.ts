import { kindDefinition, ref } from '../../openapi/builders/group-builders.js';
import { CORE } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';

const DEFINITIONS: Definitions = {
  [`${CORE}Binding`]: kindDefinition({
    group: '',
    version: 'v1',
    kind: 'Binding',
    description: 'Binding ties one object to another; for example, a pod is bound to a node by a scheduler.',
    properties: { target: ref(`${CORE}ObjectReference`, 'The target object that you want to bind to the standard object.') },
    required: ['target'],
  }),
};

const FIELD_NUMBERS: FieldNumberTable = { [`${CORE}Binding`]: { tags: { metadata: 1, target: 2 } } };

/** Binding: the kind of core/v1 pods/binding, never stored (the pod is what changes). */
export const BINDING_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
