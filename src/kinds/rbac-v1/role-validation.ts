import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { type LabelSelectorObject, labelSelectorAsSelector, validateLabelSelector } from '../../selectors/label-selector-object.js';

/**
 * Role and ClusterRole validation as pkg/apis/rbac/validation does it (ValidateRole, ValidateClusterRole and
 * ValidatePolicyRule); names are the store's (path-segment names, as for every RBAC kind).
 */

type Obj = Record<string, unknown>;

const items = (value: unknown): Obj[] => (Array.isArray(value) ? value.map((v) => (isObject(v) ? v : {})) : []);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : []);

/** ValidatePolicyRule: a rule names verbs, and either resources with their groups or (cluster-wide) URLs. */
function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (strings(rule.verbs).length === 0) errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = strings(rule.nonResourceURLs);
  const groups = strings(rule.apiGroups);
  const resources = strings(rule.resources);
  const names = strings(rule.resourceNames);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (groups.length > 0 || resources.length > 0 || names.length > 0) {
      errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (groups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (resources.length === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  if (names.length > 0 && resources.length > 1) {
    errs.push(fieldError.required(`${path}.resourceNames`, 'resource names cannot apply to multiple resources'));
  }
  return errs;
}

function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  return items(obj.rules).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

/** ValidateRole (create and update alike). */
export const validateRole = (role: KubeObject): FieldError[] => validateRules(role, true);

/** Whether any aggregation selector carries a value the selector rules refuse (then updates tolerate them). */
function hasInvalidSelectorValue(role: KubeObject): boolean {
  const rule = isObject(role.aggregationRule) ? role.aggregationRule : {};
  return items(rule.clusterRoleSelectors).some((s) => validateLabelSelector(s as LabelSelectorObject, '').length > 0);
}

function validateClusterRoleWith(role: KubeObject, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const errs = validateRules(role, false);
  if (isObject(role.aggregationRule)) {
    const path = 'aggregationRule.clusterRoleSelectors';
    const selectors = items(role.aggregationRule.clusterRoleSelectors);
    if (selectors.length === 0)
      errs.push(fieldError.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((selector, i) => {
      errs.push(...validateLabelSelector(selector as LabelSelectorObject, `${path}[${i}]`, { allowInvalidLabelValueInSelector }));
      try {
        labelSelectorAsSelector(selector as LabelSelectorObject);
      } catch {
        // Go prints the nil selector LabelSelectorAsSelector returned.
        errs.push(fieldError.invalid(`${path}[${i}]`, 'null', 'invalid label selector.'));
      }
    });
  }
  return errs;
}

/** ValidateClusterRole. */
export const validateClusterRole = (role: KubeObject): FieldError[] => validateClusterRoleWith(role, false);

/** ValidateClusterRoleUpdate: selector values already stored stay acceptable. */
export const validateClusterRoleUpdate = (next: KubeObject, old: KubeObject): FieldError[] =>
  validateClusterRoleWith(next, hasInvalidSelectorValue(old));
