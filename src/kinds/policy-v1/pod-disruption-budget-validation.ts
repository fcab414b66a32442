import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { asLabelSelectorObject, validateLabelSelector } from '../../selectors/label-selector-object.js';
import { goQuote } from '../../util/go-quote.js';
import { specOf } from '../../api/json-fields.js';

/**
 * PodDisruptionBudget validation of pkg/apis/policy/validation (ValidatePodDisruptionBudgetSpec and
 * ValidatePodDisruptionBudgetStatusUpdate for policy/v1): the budget's int-or-percent fields, its selector and
 * eviction policy; non-negative counters in status.
 */

const PERCENT = /^[0-9]+%$/;
const PERCENT_ERROR =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%', or '93%', regex used for validation is '[0-9]+%')";
const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** An IntOrString as Go's %#v prints it (its String method has a pointer receiver, so validation shows the struct). */
function intOrStringLiteral(value: number | string): GoLiteral {
  return typeof value === 'number'
    ? new GoLiteral(`intstr.IntOrString{Type:0, IntVal:${value}, StrVal:""}`)
    : new GoLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`);
}

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent for one budget field. */
function validateIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'number') return value < 0 ? [fieldError.invalid(path, value, 'must be greater than or equal to 0')] : [];
  if (typeof value !== 'string') return [];
  if (!PERCENT.test(value)) return [fieldError.invalid(path, intOrStringLiteral(value), PERCENT_ERROR)];
  return Number(value.slice(0, -1)) > 100 ? [fieldError.invalid(path, intOrStringLiteral(value), 'must not be greater than 100%')] : [];
}

/** The spec as Go's %#v prints it: pointers show as addresses, which differ per request in Kubernetes too. */
function specLiteral(spec: Record<string, unknown>): GoLiteral {
  const pointer = (type: string, value: unknown, address: string): string =>
    value === undefined || value === null ? `(*${type})(nil)` : `(*${type})(${address})`;
  return new GoLiteral(
    `policy.PodDisruptionBudgetSpec{MinAvailable:${pointer('intstr.IntOrString', spec.minAvailable, '0xc000a1e000')}, Selector:${pointer('v1.LabelSelector', spec.selector, '0xc000a1e020')}, MaxUnavailable:${pointer('intstr.IntOrString', spec.maxUnavailable, '0xc000a1e040')}, UnhealthyPodEvictionPolicy:${pointer('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy, '0xc000a1e060')}}`,
  );
}

interface BudgetOptions {
  readonly allowInvalidLabelValueInSelector?: boolean;
}

function validateSpec(spec: Record<string, unknown>, opts: BudgetOptions): FieldError[] {
  const errors: FieldError[] = [];
  const has = (v: unknown): boolean => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable)) {
    errors.push(fieldError.invalid('spec', specLiteral(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  errors.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  errors.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errors.push(...validateLabelSelector(asLabelSelectorObject(spec.selector), 'spec.selector', opts));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === 'string' && !EVICTION_POLICIES.includes(policy)) {
    errors.push(fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, EVICTION_POLICIES));
  }
  return errors;
}

export function validatePodDisruptionBudget(pdb: KubeObject): FieldError[] {
  return validateSpec(specOf(pdb), {});
}

/** The selector is mutable in policy/v1; values a stored selector already had stay acceptable. */
export function validatePodDisruptionBudgetUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const oldInvalid = validateLabelSelector(asLabelSelectorObject(specOf(old).selector), 'spec.selector').length > 0;
  return validateSpec(specOf(next), { allowInvalidLabelValueInSelector: oldInvalid });
}

const STATUS_COUNTERS = ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'];

/** ValidatePodDisruptionBudgetStatusUpdate for policy/v1: the counters may not be negative. */
export function validatePodDisruptionBudgetStatusUpdate(next: KubeObject): FieldError[] {
  const status = isObject(next.status) ? next.status : {};
  const errors: FieldError[] = [];
  for (const key of STATUS_COUNTERS) {
    const value = status[key];
    if (typeof value === 'number' && value < 0)
      errors.push(fieldError.invalid(`status.${key}`, value, 'must be greater than or equal to 0'));
  }
  return errors;
}
