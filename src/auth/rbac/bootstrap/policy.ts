import { cascadeClusterRoleBindings, cascadeClusterRoles } from './cascade-roles.js';
import { defaultClusterRoleBindings, defaultClusterRoles } from './cluster-roles.js';
import { controllerClusterRoleBindings, controllerClusterRoles } from './controller-roles.js';
import type { ClusterRole, ClusterRoleBinding } from './rbac-types.js';

export interface BootstrapPolicy {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
}

/** Every RBAC object the API server keeps in place at startup; fresh copies on each call. */
export function bootstrapPolicy(): BootstrapPolicy {
  return {
    clusterRoles: [...defaultClusterRoles(), ...controllerClusterRoles(), ...cascadeClusterRoles()],
    clusterRoleBindings: [...defaultClusterRoleBindings(), ...controllerClusterRoleBindings(), ...cascadeClusterRoleBindings()],
  };
}
