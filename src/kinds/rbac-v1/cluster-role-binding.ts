import { kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateClusterRoleBinding, validateClusterRoleBindingUpdate } from './binding-validation.js';
import { bindingPrinter, defaultRbacSubjects } from './binding.js';
import { GROUP, P, SUBJECTS } from './schema-parts.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const clusterRoleBindingRoleRef =
  'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

const DEFINITIONS: Definitions = {
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
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.rbac.v1.ClusterRoleBinding': { tags: { metadata: 1, subjects: 2, roleRef: 3 } },
  'io.k8s.api.rbac.v1.ClusterRoleBindingList': { tags: { metadata: 1, items: 2 } },
};

/** rbac.authorization.k8s.io/v1 ClusterRoleBinding. */
export const CLUSTER_ROLE_BINDING: KindDefinition = {
  resource: resourceInfo({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
    nameFormat: 'path-segment',
  }),
  strategy: { defaults: defaultRbacSubjects, validate: validateClusterRoleBinding, validateUpdate: validateClusterRoleBindingUpdate },
  printer: bindingPrinter(clusterRoleBindingRoleRef, 'clusterRoleBinding'),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
