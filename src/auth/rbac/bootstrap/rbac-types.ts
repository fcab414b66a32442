import type { KubeObject } from '../../../api/types.js';
import type { LabelSelectorObject } from '../../../selectors/label-selector-object.js';

/** rbac/v1 PolicyRule; absent lists and empty ones mean the same. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: AggregationRule;
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface ClusterRoleBinding extends KubeObject {
  roleRef: RoleRef;
  subjects?: Subject[];
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
