import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { isValidPathSegmentName } from '../../validation/names.js';

/**
 * Defaults and validation of MatchResources and its rules (R11.142, R11.144, R11.145, R11.13–R11.15), which the
 * policy's matchConstraints and the binding's matchResources share.
 */

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : []);

/** SetDefaults_MatchResources and SetDefaults_Rule: Equivalent, empty selectors, scope "*". */
export function defaultMatchResources(m: unknown): void {
  if (!isObject(m)) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const list of [m.resourceRules, m.excludeResourceRules]) {
    if (!Array.isArray(list)) continue;
    for (const rule of list) if (isObject(rule)) rule.scope ??= '*';
  }
}

function validateResources(resources: string[], path: string): FieldError[] {
  if (resources.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const wildcardSubresourceOf = new Set<string>();
  const wildcardResourceFor = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((entry, i) => {
    if (entry === '') {
      errs.push(fieldError.required(`${path}[${i}]`));
      return;
    }
    if (entry === '*/*') doubleWildcard = true;
    if (entry === '*') singleWildcard = true;
    const slash = entry.indexOf('/');
    if (slash < 0) {
      plainResource = entry !== '*';
      return;
    }
    const res = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    // Kubernetes only looks back: a wildcard listed after the entry it covers goes unnoticed (quirk Q16).
    if (wildcardSubresourceOf.has(res))
      errs.push(fieldError.invalid(`${path}[${i}]`, entry, `if '${res}/*' is present, must not specify ${entry}`));
    if (wildcardResourceFor.has(sub))
      errs.push(fieldError.invalid(`${path}[${i}]`, entry, `if '*/${sub}' is present, must not specify ${entry}`));
    if (sub === '*') wildcardSubresourceOf.add(res);
    if (res === '*') wildcardResourceFor.add(sub);
  });
  if (resources.length > 1 && doubleWildcard)
    errs.push(fieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource)
    errs.push(fieldError.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateWildcardList(values: string[], path: string, what: string): FieldError[] {
  if (values.length === 0) return [fieldError.required(path)];
  if (values.length > 1 && values.includes('*'))
    return [fieldError.invalid(path, values, `if '*' is present, must not specify other ${what}`)];
  return [];
}

/** validateNamedRuleWithOperations: resourceNames, then the webhook rule checks. */
function validateNamedRule(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.resourceNames[${i}]`, name, msg));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  const operations = strings(rule.operations);
  errs.push(...validateWildcardList(operations, `${path}.operations`, 'operations'));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(fieldError.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  errs.push(...validateWildcardList(strings(rule.apiGroups), `${path}.apiGroups`, 'API groups'));
  const versions = strings(rule.apiVersions);
  errs.push(...validateWildcardList(versions, `${path}.apiVersions`, 'API versions'));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldError.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(strings(rule.resources), `${path}.resources`));
  if (typeof rule.scope === 'string' && !SCOPES.includes(rule.scope))
    errs.push(fieldError.notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}

/** validateMatchResources; `path` is where the causes are reported. */
export function validateMatchResources(m: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof m.matchPolicy !== 'string') errs.push(fieldError.required(`${path}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(m.matchPolicy))
    errs.push(fieldError.notSupported(`${path}.matchPolicy`, m.matchPolicy, MATCH_POLICIES));
  for (const selector of ['namespaceSelector', 'objectSelector'] as const) {
    if (!isObject(m[selector])) errs.push(fieldError.required(`${path}.${selector}`));
    else errs.push(...validateLabelSelector(asLabelSelectorObject(m[selector]), `${path}.${selector}`));
  }
  for (const list of ['resourceRules', 'excludeResourceRules'] as const) {
    const rules = Array.isArray(m[list]) ? m[list] : [];
    rules.forEach((rule, i) => {
      errs.push(...validateNamedRule(isObject(rule) ? rule : {}, `${path}.${list}[${i}]`));
    });
  }
  return errs;
}

export const specOf = (obj: KubeObject): Record<string, unknown> => (isObject(obj.spec) ? obj.spec : {});
