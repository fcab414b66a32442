import { kindDefinition, ref } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';

const EVICTION = 'io.k8s.api.policy.v1.Eviction';

const DEFINITIONS: Definitions = {
  [EVICTION]: kindDefinition({
    group: 'policy',
    version: 'v1',
    kind: 'Eviction',
    description: 'Eviction evicts a pod from its node subject to certain policies and safety constraints.',
    properties: { deleteOptions: ref('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', 'DeleteOptions may be provided') },
  }),
};

const FIELD_NUMBERS: FieldNumberTable = { [EVICTION]: { tags: { metadata: 1, deleteOptions: 2 } } };

/** policy/v1 Eviction: the body of core/v1 pods/eviction, never stored (the pod is deleted). */
export const EVICTION_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
