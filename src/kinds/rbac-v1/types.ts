import { str, stringArray } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { TypeSet } from '../define/kind-definition.js';
import { ATOMIC, P } from './schema-parts.js';

const DEFINITIONS: Definitions = {
  [`${P}PolicyRule`]: {
    type: 'object',
    description: 'One permission: verbs allowed on resources or non-resource URLs, without saying who holds it.',
    properties: {
      apiGroups: stringArray('API groups of the resources; "" is the core group and "*" any group.', ATOMIC),
      nonResourceURLs: stringArray('Non-resource URL paths; "*" only as the final path segment. Only for ClusterRoles.', ATOMIC),
      resourceNames: stringArray('Names of the objects the rule is limited to; empty means all.', ATOMIC),
      resources: stringArray('Resources the rule applies to; "*" means all.', ATOMIC),
      verbs: stringArray('Verbs allowed on all the listed resources; "*" means all.', ATOMIC),
    },
    required: ['verbs'],
  },
  [`${P}RoleRef`]: {
    type: 'object',
    description: 'Points to the role being granted.',
    properties: {
      apiGroup: str('API group of the referenced role.'),
      kind: str('Kind of the referenced role: Role or ClusterRole.'),
      name: str('Name of the referenced role.'),
    },
    required: ['apiGroup', 'kind', 'name'],
    'x-kubernetes-map-type': 'atomic',
  },
  [`${P}Subject`]: {
    type: 'object',
    description: 'A user, group or service account a binding applies to.',
    properties: {
      apiGroup: str('API group of the subject: "" for ServiceAccount, rbac.authorization.k8s.io for User and Group.'),
      kind: str('User, Group or ServiceAccount.'),
      name: str('Name of the subject.'),
      namespace: str('Namespace of a ServiceAccount subject; must be empty for users and groups.'),
    },
    required: ['kind', 'name'],
    'x-kubernetes-map-type': 'atomic',
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.rbac.v1.PolicyRule': {
    tags: { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4, nonResourceURLs: 5 },
  },
  'io.k8s.api.rbac.v1.RoleRef': { tags: { apiGroup: 1, kind: 2, name: 3 } },
  'io.k8s.api.rbac.v1.Subject': { tags: { kind: 1, apiGroup: 2, name: 3, namespace: 4 } },
};

/** Types the RBAC kinds share: rules and the role reference and subjects of bindings. */
export const RBAC_V1_TYPES: TypeSet = { definitions: DEFINITIONS, fieldNumbers: FIELD_NUMBERS };
