import type { FieldNumberTable } from '../define/field-numbers.js';

export const RBAC_V1_FIELD_NUMBERS: FieldNumberTable = {
  'io.k8s.api.rbac.v1.AggregationRule': { tags: { clusterRoleSelectors: 1 } },
  'io.k8s.api.rbac.v1.ClusterRole': { tags: { metadata: 1, rules: 2, aggregationRule: 3 } },
  'io.k8s.api.rbac.v1.ClusterRoleBinding': { tags: { metadata: 1, subjects: 2, roleRef: 3 } },
  'io.k8s.api.rbac.v1.ClusterRoleBindingList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.rbac.v1.ClusterRoleList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.rbac.v1.PolicyRule': {
    tags: { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4, nonResourceURLs: 5 },
  },
  'io.k8s.api.rbac.v1.Role': { tags: { metadata: 1, rules: 2 } },
  'io.k8s.api.rbac.v1.RoleBinding': { tags: { metadata: 1, subjects: 2, roleRef: 3 } },
  'io.k8s.api.rbac.v1.RoleBindingList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.rbac.v1.RoleList': { tags: { metadata: 1, items: 2 } },
  'io.k8s.api.rbac.v1.RoleRef': { tags: { apiGroup: 1, kind: 2, name: 3 } },
  'io.k8s.api.rbac.v1.Subject': { tags: { kind: 1, apiGroup: 2, name: 3, namespace: 4 } },
};
