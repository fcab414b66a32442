import { isObject, type KubeObject } from '../../api/types.js';
import { text } from '../../api/json-fields.js';

/** rbac.authorization.k8s.io/v1 PolicyRule; absent lists read as empty. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** A binding's subject: kind User, Group or ServiceAccount (anything else never applies). */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  /** Only meaningful for ServiceAccount; "" means the binding's own namespace. */
  readonly namespace: string;
}

export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const strings = (value: unknown): readonly string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export function policyRule(value: unknown): PolicyRule {
  const r = isObject(value) ? value : {};
  return {
    verbs: strings(r.verbs),
    apiGroups: strings(r.apiGroups),
    resources: strings(r.resources),
    resourceNames: strings(r.resourceNames),
    nonResourceURLs: strings(r.nonResourceURLs),
  };
}

/** The rules of a Role or ClusterRole object. */
export function rulesOf(role: KubeObject): readonly PolicyRule[] {
  return Array.isArray(role.rules) ? role.rules.map(policyRule) : [];
}

export function subjectsOf(binding: KubeObject): readonly Subject[] {
  if (!Array.isArray(binding.subjects)) return [];
  return binding.subjects.filter(isObject).map((s) => ({ kind: text(s.kind), name: text(s.name), namespace: text(s.namespace) }));
}

export function roleRefOf(binding: KubeObject): RoleRef {
  const ref = isObject(binding.roleRef) ? binding.roleRef : {};
  return { apiGroup: text(ref.apiGroup), kind: text(ref.kind), name: text(ref.name) };
}

/** True when a ClusterRole gathers rules from others (its rules are then the aggregation controller's to write). */
export function hasAggregationRule(clusterRole: KubeObject): boolean {
  const rule = clusterRole.aggregationRule;
  return isObject(rule) && Array.isArray(rule.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}
