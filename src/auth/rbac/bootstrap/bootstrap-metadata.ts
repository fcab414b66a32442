import type { LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { type ClusterRole, type ClusterRoleBinding, type PolicyRule, RBAC_GROUP, type Subject } from './rbac-types.js';

export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
export const BOOTSTRAPPING_VALUE = 'rbac-defaults';
/** "false" on an object tells the API server to leave it alone at startup (rbacv1.AutoUpdateAnnotationKey). */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const RBAC_API_VERSION = `${RBAC_GROUP}/v1`;

export interface ClusterRoleOptions {
  /** Labels beyond the bootstrapping one, e.g. an aggregate-to-* label. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Makes the role aggregated: its rules are filled in by the aggregation controller. */
  readonly aggregateFrom?: readonly LabelSelectorObject[];
}

export function bootstrapClusterRole(name: string, rules: readonly PolicyRule[], options: ClusterRoleOptions = {}): ClusterRole {
  const role: ClusterRole = {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { ...options.labels, [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE },
      annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
    },
  };
  if (options.aggregateFrom !== undefined) role.aggregationRule = { clusterRoleSelectors: structuredClone([...options.aggregateFrom]) };
  else role.rules = structuredClone([...rules]);
  return role;
}

export function bootstrapClusterRoleBinding(roleName: string, subjects: readonly Subject[]): ClusterRoleBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: {
      name: roleName,
      labels: { [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE },
      annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
    },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    subjects: [...subjects],
  };
}

export const groupSubject = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const serviceAccountSubject = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });
