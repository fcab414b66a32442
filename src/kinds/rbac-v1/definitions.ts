import { definitionRef, type Definitions, type Schema } from '../../openapi/schema.js';
import { arrayOf, kindDefinition, LABEL_SELECTOR, listDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';

/** rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding and ClusterRoleBinding. */

const P = 'io.k8s.api.rbac.v1.';
const GROUP = 'rbac.authorization.k8s.io';

const ATOMIC = { 'x-kubernetes-list-type': 'atomic' } as const;

const RULES = (owner: string): Schema => arrayOf(definitionRef(`${P}PolicyRule`), `The permissions of this ${owner}.`, ATOMIC);
const SUBJECTS: Schema = arrayOf(definitionRef(`${P}Subject`), 'The users, groups and service accounts the role is granted to.', ATOMIC);

export const RBAC_V1_DEFINITIONS: Definitions = {
  [`${P}Role`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'Role',
    description: 'Role is a namespaced set of permissions that a RoleBinding can grant.',
    properties: { rules: RULES('Role') },
  }),
  [`${P}RoleList`]: listDefinition(GROUP, 'v1', 'Role', `${P}Role`),
  [`${P}ClusterRole`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'ClusterRole',
    description: 'ClusterRole is a cluster-wide set of permissions that a RoleBinding or ClusterRoleBinding can grant.',
    properties: {
      aggregationRule: ref(
        `${P}AggregationRule`,
        'When set, the controller computes the rules from the ClusterRoles it selects and overwrites direct edits.',
      ),
      rules: RULES('ClusterRole'),
    },
  }),
  [`${P}ClusterRoleList`]: listDefinition(GROUP, 'v1', 'ClusterRole', `${P}ClusterRole`),
  [`${P}RoleBinding`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'RoleBinding',
    description: 'RoleBinding grants a Role or ClusterRole to subjects within its namespace.',
    properties: {
      roleRef: ref(`${P}RoleRef`, 'The Role in this namespace or the ClusterRole being granted. Immutable.'),
      subjects: SUBJECTS,
    },
    required: ['roleRef'],
  }),
  [`${P}RoleBindingList`]: listDefinition(GROUP, 'v1', 'RoleBinding', `${P}RoleBinding`),
  [`${P}ClusterRoleBinding`]: kindDefinition({
    group: GROUP,
    version: 'v1',
    kind: 'ClusterRoleBinding',
    description: 'ClusterRoleBinding grants a ClusterRole to subjects across the whole cluster.',
    properties: {
      roleRef: ref(`${P}RoleRef`, 'The ClusterRole being granted. Immutable.'),
      subjects: SUBJECTS,
    },
    required: ['roleRef'],
  }),
  [`${P}ClusterRoleBindingList`]: listDefinition(GROUP, 'v1', 'ClusterRoleBinding', `${P}ClusterRoleBinding`),
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
  [`${P}AggregationRule`]: {
    type: 'object',
    description: 'Selects the ClusterRoles whose rules are aggregated into a ClusterRole.',
    properties: {
      clusterRoleSelectors: arrayOf(definitionRef(LABEL_SELECTOR), 'ClusterRoles matching any selector contribute their rules.', ATOMIC),
    },
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
