import { PROTECTION_RULES } from '../../../protection/rule-types.js';
import { bootstrapClusterRole, bootstrapClusterRoleBinding, serviceAccountSubject, userSubject } from './bootstrap-metadata.js';
import { KUBE_CONTROLLER_MANAGER_USER } from './cluster-roles.js';
import { CONTROLLER_NAMESPACE } from './controller-roles.js';
import type { ClusterRole, ClusterRoleBinding } from './rbac-types.js';
import { EVENTS_RULE, resourceRule } from './rule-builder.js';

/** Cascade's own objects carry this prefix instead of "system:", which Kubernetes reserves for its own. */
const CASCADE_PREFIX = 'cascade:';

export const PROTECTION_RULE_CONTROLLER_ACCOUNT = 'protection-rule-controller';
export const PROTECTION_RULE_CONTROLLER_ROLE = `${CASCADE_PREFIX}controller:${PROTECTION_RULE_CONTROLLER_ACCOUNT}`;

/**
 * The restore controller (issue 28) reads the archive, checks live names and writes Restores' status; the objects
 * it recreates are created as each Restore's requester, not with this role. It patches them only to remove its own
 * `cascade.dev/restoring` annotation, which holds a workload's controller back until its dependents are restored.
 */
export const RESTORE_CONTROLLER_ACCOUNT = 'restore-controller';
export const RESTORE_CONTROLLER_ROLE = `${CASCADE_PREFIX}controller:${RESTORE_CONTROLLER_ACCOUNT}`;

/** The simulated kubelets of `--simulate-nodes` act as this account: their nodes, Leases and pods' status. */
export const NODE_SIMULATOR_ACCOUNT = 'node-simulator';
export const NODE_SIMULATOR_ROLE = `${CASCADE_PREFIX}controller:${NODE_SIMULATOR_ACCOUNT}`;

/** The Lease Cascade's controller manager elects its leader on (LeaderElector's default name, in kube-system). */
export const CASCADE_CONTROLLER_MANAGER_LEASE = 'cascade-controller-manager';
export const LEADER_LOCKING_ROLE = `${CASCADE_PREFIX}leader-locking-controller-manager`;

export function cascadeClusterRoles(): ClusterRole[] {
  return [
    // A rule names any provider and dependent resource, so the controller watches and finalizes objects of any kind,
    // and keeps its own cleanup finalizer on the rules.
    bootstrapClusterRole(PROTECTION_RULE_CONTROLLER_ROLE, [
      resourceRule(['get', 'list', 'watch', 'update', 'patch'], [PROTECTION_RULES.group], [PROTECTION_RULES.resource]),
      resourceRule(['get', 'list', 'watch', 'update', 'patch'], ['*'], ['*']),
    ]),
    bootstrapClusterRole(RESTORE_CONTROLLER_ROLE, [
      resourceRule(['get', 'list', 'watch'], ['cascade.dev'], ['archivedobjects', 'clusterarchivedobjects', 'restores']),
      resourceRule(['update', 'patch'], ['cascade.dev'], ['restores/status']),
      resourceRule(['get', 'list', 'patch'], ['*'], ['*']),
    ]),
    bootstrapClusterRole(NODE_SIMULATOR_ROLE, [
      resourceRule(['get', 'list', 'watch', 'create', 'update', 'patch'], [''], ['nodes']),
      resourceRule(['update', 'patch'], [''], ['nodes/status', 'pods/status']),
      resourceRule(['get', 'list', 'watch', 'create', 'update'], ['coordination.k8s.io'], ['leases']),
      resourceRule(['get', 'list', 'watch', 'delete'], [''], ['pods']),
      EVENTS_RULE,
    ]),
    // system:kube-controller-manager may create any Lease but renew only the one named kube-controller-manager.
    bootstrapClusterRole(LEADER_LOCKING_ROLE, [
      resourceRule(['get', 'update'], ['coordination.k8s.io'], ['leases'], [CASCADE_CONTROLLER_MANAGER_LEASE]),
    ]),
  ];
}

export function cascadeClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    bootstrapClusterRoleBinding(PROTECTION_RULE_CONTROLLER_ROLE, [
      serviceAccountSubject(CONTROLLER_NAMESPACE, PROTECTION_RULE_CONTROLLER_ACCOUNT),
    ]),
    bootstrapClusterRoleBinding(RESTORE_CONTROLLER_ROLE, [serviceAccountSubject(CONTROLLER_NAMESPACE, RESTORE_CONTROLLER_ACCOUNT)]),
    bootstrapClusterRoleBinding(NODE_SIMULATOR_ROLE, [serviceAccountSubject(CONTROLLER_NAMESPACE, NODE_SIMULATOR_ACCOUNT)]),
    bootstrapClusterRoleBinding(LEADER_LOCKING_ROLE, [userSubject(KUBE_CONTROLLER_MANAGER_USER)]),
  ];
}
