import type { FieldNumberTable } from '../../define/field-numbers.js';

/** core/v1 reference types several kinds point at (objects, secrets, event sources). */
export const CORE_V1_REFERENCE_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.core.v1.EventSource': { tags: { component: 1, host: 2 } },
  'io.k8s.api.core.v1.ObjectReference': {
    tags: { kind: 1, namespace: 2, name: 3, uid: 4, apiVersion: 5, resourceVersion: 6, fieldPath: 7 },
  },
  'io.k8s.api.core.v1.SecretReference': { tags: { name: 1, namespace: 2 } },
  'io.k8s.api.core.v1.TypedLocalObjectReference': { tags: { apiGroup: 1, kind: 2, name: 3 }, pointers: ['apiGroup'] },
  'io.k8s.api.core.v1.TypedObjectReference': {
    tags: { apiGroup: 1, kind: 2, name: 3, namespace: 4 },
    pointers: ['apiGroup', 'namespace'],
  },
};
