/** Whether one PolicyRule grants a request (the RBAC authorizer's RuleAllows and the rbac/v1 matching helpers). */
import type { AuthorizationAttributes } from '../authorizer.js';
import { SERVICE_ACCOUNT_PREFIX, type UserInfo } from '../../api/user.js';
import type { PolicyRule, Subject } from './policy.js';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.some((g) => g === '*' || g === group);
}

/**
 * `combined` is "resource" or "resource/subresource". Rules name "*", an exact combination, or "*\/subresource";
 * "resource/*" has no special meaning in Kubernetes and so matches only itself literally.
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return rule.resources.some(
    (r) =>
      r === '*' ||
      r === combined ||
      (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)),
  );
}

/** An empty list allows every name; otherwise the request must name one of them, so collection requests never match. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
}

/** "*" allows every path, "/apis/*" every path starting with "/apis/", anything else only itself. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return rule.nonResourceURLs.some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(trimTrailingStars(u))));
}

export function trimTrailingStars(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '*') end--;
  return s.slice(0, end);
}

export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.resourceRequest) return nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  return (
    apiGroupMatches(rule, attrs.apiGroup) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name)
  );
}

/**
 * Whether a binding subject designates the user. A ServiceAccount subject without a namespace means one in
 * `bindingNamespace` (the RoleBinding's); in a ClusterRoleBinding ("" namespace) such a subject matches nobody.
 */
export function subjectMatches(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace !== '' ? subject.namespace : bindingNamespace;
      return namespace !== '' && user.name === `${SERVICE_ACCOUNT_PREFIX}${namespace}:${subject.name}`;
    }
    default:
      return false;
  }
}
