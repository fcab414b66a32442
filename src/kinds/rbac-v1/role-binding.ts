import { kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateRoleBinding, validateRoleBindingUpdate } from './binding-validation.js';
import { bindingPrinter, defaultRbacSubjects } from './binding.js';
import { GROUP, P, SUBJECTS } from './schema-parts.js';

/** Column descriptions: the swagger docs of the fields, as the Go printers report them. */
const roleBindingRoleRef =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

const DEFINITIONS: Definitions = {
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
};

const FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.rbac.v1.RoleBinding': { tags: { metadata: 1, subjects: 2, roleRef: 3 } },
  'io.k8s.api.rbac.v1.RoleBindingList': { tags: { metadata: 1, items: 2 } },
};

/** rbac.authorization.k8s.io/v1 RoleBinding. */
export const ROLE_BINDING: KindDefinition = {
  resource: resourceInfo({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    namespaced: true,
    nameFormat: 'path-segment',
  }),
  strategy: { defaults: defaultRbacSubjects, validate: validateRoleBinding, validateUpdate: validateRoleBindingUpdate },
  printer: bindingPrinter(roleBindingRoleRef, 'roleBinding'),
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
