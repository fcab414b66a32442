import { SYSTEM_AUTHENTICATED, serviceAccountUser, type UserInfo } from '../../../api/user.js';
import { NODE_SIMULATOR_ACCOUNT, PROTECTION_RULE_CONTROLLER_ACCOUNT, RESTORE_CONTROLLER_ACCOUNT } from './cascade-roles.js';
import { KUBE_CONTROLLER_MANAGER_USER, KUBE_SCHEDULER_USER } from './cluster-roles.js';
import { CONTROLLER_ACCOUNTS, CONTROLLER_NAMESPACE, KUBERNETES_CONTROLLERS, type KubernetesController } from './controller-roles.js';

export type ControllerName = KubernetesController | 'protectionRules' | 'scheduler' | 'nodeSimulator';

/**
 * Who each controller must act as, keyed like ControllerManager's fields, so that RBAC limits each to the role
 * bound to its service account (kube-controller-manager's --use-service-account-credentials).
 */
export const CONTROLLER_IDENTITIES: Readonly<Record<ControllerName, UserInfo>> = {
  ...(Object.fromEntries(
    KUBERNETES_CONTROLLERS.map((key) => [key, serviceAccountUser(CONTROLLER_NAMESPACE, CONTROLLER_ACCOUNTS[key])]),
  ) as Record<KubernetesController, UserInfo>),
  protectionRules: serviceAccountUser(CONTROLLER_NAMESPACE, PROTECTION_RULE_CONTROLLER_ACCOUNT),
  // kube-scheduler authenticates as this user, not as a controller service account.
  scheduler: { name: KUBE_SCHEDULER_USER, groups: [SYSTEM_AUTHENTICATED] },
  nodeSimulator: serviceAccountUser(CONTROLLER_NAMESPACE, NODE_SIMULATOR_ACCOUNT),
};

/** The restore controller (issue 28), which the API server runs with the archive. */
export const RESTORE_CONTROLLER_IDENTITY: UserInfo = serviceAccountUser(CONTROLLER_NAMESPACE, RESTORE_CONTROLLER_ACCOUNT);

/** The controller manager itself, for what no single controller does: leader election. */
export const CONTROLLER_MANAGER_IDENTITY: UserInfo = { name: KUBE_CONTROLLER_MANAGER_USER, groups: [SYSTEM_AUTHENTICATED] };
