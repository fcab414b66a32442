import { goQuoteList } from './go-format.js';
import type { PolicyRule } from './policy.js';
import { trimTrailingStars } from './rule-matching.js';

/**
 * Escalation checks: whether the rules someone holds include every permission of rules they want to grant
 * (Kubernetes' validation.Covers), and how the missing ones are described (CompactRules + CompactString).
 */

const rule = (fields: Partial<PolicyRule>): PolicyRule => ({
  verbs: [],
  apiGroups: [],
  resources: [],
  resourceNames: [],
  nonResourceURLs: [],
  ...fields,
});

/** Splits a rule into rules of one group, resource, verb and (if any) resource name; URLs pair only with verbs. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups) {
    for (const resource of r.resources) {
      for (const verb of r.verbs) {
        if (r.resourceNames.length === 0) out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb] }));
        else
          for (const name of r.resourceNames)
            out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }));
      }
    }
  }
  for (const url of r.nonResourceURLs) {
    for (const verb of r.verbs) out.push(rule({ nonResourceURLs: [url], verbs: [verb] }));
  }
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean => wanted.every((w) => set.includes(w));

function resourcesCovered(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes('*') || hasAll(owned, wanted)) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owned.includes(`*/${path.slice(slash + 1)}`);
  });
}

const urlCovered = (owned: string, wanted: string): boolean =>
  owned === wanted || (owned.endsWith('*') && wanted.startsWith(trimTrailingStars(owned)));

/** Whether `owner` covers `sub`, a rule broken down by breakdownRule. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups.includes('*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourcesCovered(owner.resources, sub.resources);
  const urls = sub.nonResourceURLs.every((wanted) => owner.nonResourceURLs.some((owned) => urlCovered(owned, wanted)));
  const names = owner.resourceNames.length === 0 || (sub.resourceNames.length > 0 && hasAll(owner.resourceNames, sub.resourceNames));
  return verbs && groups && resources && urls && names;
}

/** The broken-down parts of `wanted` that no rule in `owned` covers; empty when `owned` covers everything. */
export function uncoveredRules(owned: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((sub) => !owned.some((owner) => ruleCovers(owner, sub)));
}

/** Merges rules of a single group and resource, and nothing else, that differ only in verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, { apiGroups: readonly string[]; resources: readonly string[]; verbs: string[] }>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length === 0 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0]]);
    const existing = simple.get(key);
    if (existing === undefined) simple.set(key, { apiGroups: r.apiGroups, resources: r.resources, verbs: [...r.verbs] });
    else existing.verbs.push(...r.verbs);
  }
  for (const s of simple.values()) compacted.push(rule(s));
  return compacted;
}

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`: only the non-empty fields, in this order. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups.length > 0) parts.push(`APIGroups:${goQuoteList(r.apiGroups)}`);
  if (r.resources.length > 0) parts.push(`Resources:${goQuoteList(r.resources)}`);
  if (r.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${goQuoteList(r.nonResourceURLs)}`);
  if (r.resourceNames.length > 0) parts.push(`ResourceNames:${goQuoteList(r.resourceNames)}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goQuoteList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** The missing permissions as Kubernetes lists them: compacted, described, deduplicated, sorted, one per line. */
export function describeMissing(missing: readonly PolicyRule[]): string {
  const lines = [...new Set(compactRules(missing).map(compactString))];
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join('\n');
}
