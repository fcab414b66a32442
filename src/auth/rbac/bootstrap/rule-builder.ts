import type { PolicyRule } from './rbac-types.js';

/**
 * Kubernetes' rule builder stores every list deduplicated and sorted, which is the form the bootstrap objects have
 * on the server; building them the same way keeps reconciliation from seeing spurious differences.
 */
const sortedSet = (values: readonly string[]): string[] => [...new Set(values)].sort();

/** A rule on API resources; `names` restricts it to those object names. */
export function resourceRule(
  verbs: readonly string[],
  groups: readonly string[],
  resources: readonly string[],
  names: readonly string[] = [],
): PolicyRule {
  const rule: PolicyRule = { verbs: sortedSet(verbs), apiGroups: sortedSet(groups), resources: sortedSet(resources) };
  if (names.length > 0) rule.resourceNames = sortedSet(names);
  return rule;
}

/** A rule on non-resource paths such as /healthz; a trailing `*` matches any suffix. */
export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { verbs: sortedSet(verbs), nonResourceURLs: sortedSet(urls) };
}

export const READ = ['get', 'list', 'watch'] as const;
/** Kubernetes' `Write` verb set: what edit adds on top of view. */
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const READ_WRITE = [...READ, ...WRITE] as const;

/** The eventsRule() every Kubernetes controller role carries. */
export const EVENTS_RULE: PolicyRule = resourceRule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);
