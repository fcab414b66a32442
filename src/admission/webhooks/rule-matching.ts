import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject } from '../../api/types.js';

/**
 * Whether a webhook rule covers a request (predicates/rules: R11.38–R11.41). Pure: the request is described by
 * the facts the rules look at, so the same code serves the request's own version and its equivalents.
 */

export interface RuleTarget {
  readonly operation: string;
  readonly group: string;
  readonly version: string;
  /** The plural resource. */
  readonly resource: string;
  readonly subresource: string;
  /** The request's namespace ("" for cluster-scoped requests). */
  readonly namespace: string;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const listMatches = (list: readonly string[], value: string): boolean => list.some((x) => x === '*' || x === value);

/** `resource/subresource` entries split at the first slash; `*` matches any part, including no subresource (quirk Q3). */
function resourceMatches(entries: readonly string[], resource: string, subresource: string): boolean {
  return entries.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

/** R11.40: namespaces themselves, and their subresources, count as cluster-scoped. */
function scopeMatches(scope: unknown, target: RuleTarget): boolean {
  if (scope === undefined || scope === '*') return true;
  const clusterScoped = target.namespace === '' || (target.group === '' && target.resource === 'namespaces');
  return scope === 'Cluster' ? clusterScoped : scope === 'Namespaced' ? !clusterScoped : false;
}

export function ruleMatches(rule: unknown, target: RuleTarget): boolean {
  if (!isObject(rule)) return false;
  return (
    scopeMatches(rule.scope, target) &&
    listMatches(strings(rule.operations), target.operation) &&
    listMatches(strings(rule.apiGroups), target.group) &&
    listMatches(strings(rule.apiVersions), target.version) &&
    resourceMatches(strings(rule.resources), target.resource, target.subresource)
  );
}

export function anyRuleMatches(rules: unknown, target: RuleTarget): boolean {
  return Array.isArray(rules) && rules.some((rule) => ruleMatches(rule, target));
}

/**
 * The request's resource as served under another version, for matchPolicy Equivalent (R11.41): the other
 * versions of the same group and plural (a CRD's versions; built-ins Cascade serves under one version have none).
 */
export function equivalentResources(resource: ResourceInfo, served: readonly ResourceInfo[]): ResourceInfo[] {
  return served.filter((r) => r.group === resource.group && r.plural === resource.plural && r.version !== resource.version);
}

/**
 * The kinds whose writes never reach webhooks (R11.34), so that a broken webhook can always be removed.
 */
const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

export function isExemptFromWebhooks(resource: ResourceInfo): boolean {
  return resource.group === 'admissionregistration.k8s.io' && EXEMPT_KINDS.has(resource.kind);
}
