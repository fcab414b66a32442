import type { KubeObject } from '../../api/types.js';
import type { ClusterRole, PolicyRule } from '../../auth/rbac/bootstrap/rbac-types.js';
import { semanticEqual } from '../../auth/rbac/bootstrap/semantic-equal.js';
import { labelSelectorAsSelector } from '../../selectors/label-selector-object.js';

const byName = (a: KubeObject, b: KubeObject): number => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The rules an aggregated ClusterRole should hold: for each of its selectors in turn, the rules of the matching
 * roles (by name, excluding itself) in their own order, each rule kept only the first time it appears.
 * Throws SelectorError when a selector cannot be turned into a label selector.
 */
export function aggregatedRules(role: ClusterRole, all: readonly KubeObject[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const selectorObject of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorAsSelector(selectorObject);
    const matched = all.filter((other) => selector.matches(other.metadata.labels)).sort(byName);
    for (const other of matched as ClusterRole[]) {
      if (other.metadata.name === role.metadata.name) continue;
      for (const rule of other.rules ?? []) {
        if (!rules.some((r) => semanticEqual(r, rule))) rules.push(structuredClone(rule));
      }
    }
  }
  return rules;
}
