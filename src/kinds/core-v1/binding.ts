import { kindDefinition, ref } from '../../openapi/builders/group-builders.js';
import { CORE } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';

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

/**
 * core/v1 Binding: the legacy `bindings` resource (a create binds the pod the Binding names, as pods/binding does;
 * server/handlers/pod-binding.ts) and the kind of pods/binding. Never stored: the pod is what changes.
 */
export const BINDING: KindDefinition = {
  resource: resourceInfo({
    group: '',
    version: 'v1',
    kind: 'Binding',
    plural: 'bindings',
    namespaced: true,
    verbs: ['create'],
    unstored: true,
  }),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
