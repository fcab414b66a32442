import { policyRule, type PolicyRule as NormalizedRule } from '../policy.js';
import { breakdownRule as breakdownNormalized, uncoveredRules as uncoveredNormalized } from '../rule-coverage.js';
import type { PolicyRule } from './rbac-types.js';

/**
 * Rule coverage on stored (wire) rules, for reconciliation: the escalation checks' implementation, with the
 * empty lists it normalizes to left out again so reconciled roles read as Kubernetes stores them.
 */

function toWire(rule: NormalizedRule): PolicyRule {
  const wire: PolicyRule = { verbs: [...rule.verbs] };
  if (rule.apiGroups.length > 0) wire.apiGroups = [...rule.apiGroups];
  if (rule.resources.length > 0) wire.resources = [...rule.resources];
  if (rule.resourceNames.length > 0) wire.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs.length > 0) wire.nonResourceURLs = [...rule.nonResourceURLs];
  return wire;
}

/** One rule per (group, resource, verb, name) and per (URL, verb): the granularity reconciliation adds rules at. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  return breakdownNormalized(policyRule(rule)).map(toWire);
}

/** The broken-down parts of `wanted` that no rule in `owned` allows (validation.Covers); empty when all are covered. */
export function uncoveredRules(owned: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return uncoveredNormalized(owned.map(policyRule), wanted.map(policyRule)).map(toWire);
}
