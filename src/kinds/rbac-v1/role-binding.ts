import { roleBindingRoleRef } from '../../tables/column-descriptions.js';
import { defaultRbacSubjects } from '../core-v1/types/kind-defaults.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { bindingPrinter } from './binding-printer.js';

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
  strategy: { defaults: defaultRbacSubjects },
  printer: bindingPrinter(roleBindingRoleRef, 'roleBinding'),
};
