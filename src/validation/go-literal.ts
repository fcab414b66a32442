import { GoLiteral } from '../api/errors.js';
import { isObject } from '../api/types.js';
import { goQuote } from '../util/go-quote.js';

/**
 * Go's `%#v` of the few composite values workload validation reports (field.Error prints a value that is neither a
 * string, a number nor a Stringer that way): label maps, label selectors, int-or-strings. A nil map or slice prints
 * as its typed nil, an empty one as `{}`, map keys sorted as fmt sorts them.
 */

/** `map[string]string{"a":"b", "c":"d"}`, or `map[string]string(nil)` when absent. */
export function goStringMapText(value: unknown): string {
  if (!isObject(value)) return 'map[string]string(nil)';
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${goQuote(key)}:${goQuote(String(value[key] ?? ''))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

function goStringSliceText(value: unknown): string {
  if (!Array.isArray(value)) return '[]string(nil)';
  return `[]string{${value.map((v) => goQuote(String(v))).join(', ')}}`;
}

function requirementText(value: unknown): string {
  const r = isObject(value) ? value : {};
  const key = typeof r.key === 'string' ? r.key : '';
  const operator = typeof r.operator === 'string' ? r.operator : '';
  return `v1.LabelSelectorRequirement{Key:${goQuote(key)}, Operator:${goQuote(operator)}, Values:${goStringSliceText(r.values)}}`;
}

/** metav1.LabelSelector as `%#v` prints it (the dereferenced *LabelSelector a field error carries). */
export function goLabelSelectorText(selector: unknown): string {
  const s = isObject(selector) ? selector : {};
  const expressions = Array.isArray(s.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions.map(requirementText).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMapText(s.matchLabels)}, MatchExpressions:${expressions}}`;
}

export const goStringMap = (value: unknown): GoLiteral => new GoLiteral(goStringMapText(value));
export const goLabelSelector = (selector: unknown): GoLiteral => new GoLiteral(goLabelSelectorText(selector));

/** intstr.IntOrString as `%#v` prints it: Type 0 for an integer, 1 for a string. */
export function goIntOrStringText(value: unknown): string {
  if (typeof value === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`;
  const n = typeof value === 'number' ? value : 0;
  return `intstr.IntOrString{Type:0, IntVal:${n}, StrVal:""}`;
}

export const goIntOrString = (value: unknown): GoLiteral => new GoLiteral(goIntOrStringText(value));

/** A pointer field inside a `%#v` struct: `(*pkg.Type)(nil)`, or an address Go would print for a set one. */
export function goPointerText(type: string, value: unknown): string {
  return value === undefined || value === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`;
}
