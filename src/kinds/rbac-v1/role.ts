import { kindDefinition, listDefinition } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateRole } from './role-validation.js';
import { GROUP, P, RULES } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}Role`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'Role',
    description: 'Role is a namespaced set of permissions that a RoleBinding can grant.',
    properties: { rules: RULES('Role') },
  }),
  [`${P}RoleList`]: listDefinition(GROUP, 'v1', 'Role', `${P}Role`),
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.rbac.v1.Role': { tags: { metadata: 1, rules: 2 } },
  'io.k8s.api.rbac.v1.RoleList': { tags: { metadata: 1, items: 2 } },
};

/** rbac.authorization.k8s.io/v1 Role. */
export const ROLE: KindDefinition = {
  resource: resourceInfo({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'Role',
    plural: 'roles',
    namespaced: true,
    nameFormat: 'path-segment',
  }),
  strategy: { validate: validateRole },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
