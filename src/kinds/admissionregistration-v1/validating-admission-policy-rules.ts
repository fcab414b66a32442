import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { isValidPathSegmentName } from '../../validation/names.js';
import { validateRuleWithOperations } from './webhook-rules-validation.js';

/**
 * Defaults and validation of MatchResources and its rules (R11.142, R11.144, R11.145, R11.13–R11.15), which the
 * policy's matchConstraints and the binding's matchResources share.
 */

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

/** validateNamedRuleWithOperations: resourceNames, then the webhook rule checks (validateRuleWithOperations). */
function validateNamedRule(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.resourceNames[${i}]`, name, msg));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  errs.push(...validateRuleWithOperations(path, rule));
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
