import type { PolicyRule } from './rbac-types.js';

/**
 * Splits a rule into one rule per (group, resource, name, verb) and per (URL, verb), the granularity at which
 * coverage is decided and in which reconciliation adds what a stored role lacks.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const parts: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      if (names.length > 0) {
        for (const name of names) {
          for (const verb of rule.verbs) parts.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        }
      } else {
        for (const verb of rule.verbs) parts.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) parts.push({ verbs: [verb], nonResourceURLs: [url] });
  }
  return parts;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean => wanted.every((w) => set.includes(w));

// "*" covers every resource, and "*/scale" the scale subresource of every resource.
function resourcesCovered(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes('*')) return true;
  return wanted.every((resource) => {
    if (owned.includes(resource)) return true;
    const slash = resource.indexOf('/');
    return slash >= 0 && owned.includes(`*${resource.slice(slash)}`);
  });
}

/** A URL ending in `*` covers every path it is a prefix of. */
function urlsCovered(owned: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((url) => owned.some((o) => o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1)))));
}

function ruleCovers(owner: PolicyRule, wanted: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const wantedNames = wanted.resourceNames ?? [];
  // A rule limited to some names covers only those names, never the resource as a whole.
  const namesCovered = ownerNames.length === 0 || (wantedNames.length > 0 && hasAll(ownerNames, wantedNames));
  return (
    (owner.verbs.includes('*') || hasAll(owner.verbs, wanted.verbs)) &&
    ((owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups ?? [], wanted.apiGroups ?? [])) &&
    resourcesCovered(owner.resources ?? [], wanted.resources ?? []) &&
    urlsCovered(owner.nonResourceURLs ?? [], wanted.nonResourceURLs ?? []) &&
    namesCovered
  );
}

/** The broken-down parts of `wanted` that no rule in `owned` allows (validation.Covers); empty when all are covered. */
export function uncoveredRules(owned: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((part) => !owned.some((rule) => ruleCovers(rule, part)));
}
