import { clusterRoleBindingRoleRef } from '../../tables/column-descriptions.js';
import { defaultRbacSubjects } from '../core-v1/types/kind-defaults.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { bindingPrinter } from './binding-printer.js';

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
  strategy: { defaults: defaultRbacSubjects },
  printer: bindingPrinter(clusterRoleBindingRoleRef, 'clusterRoleBinding'),
};
