/**
 * The runtime bound that keeps a rule from hanging the server (R11.126, R11.139). cel-js has no cost tracker, so
 * instead of metering each step as cel-go does, Cascade bounds an evaluation before it starts: a rule can do at most
 * `astNodes × (n + 1)^depth` steps, where `depth` is its deepest nesting of comprehension macros and `n` the largest
 * collection it can iterate (the largest list, map or string in its inputs: split and findAll make lists no longer
 * than their string). Above Kubernetes' per-call limit the rule is not run and fails as cel-go's does when its meter
 * runs out; the sum over an object's rules is held to the per-object budget the same way. The bound is an
 * over-estimate of cel-go's count only by the constant factor between an AST node and cel-go's per-step cost, so
 * rules well inside the limit run and rules whose work grows as n² over large inputs are refused.
 */

export const PER_CALL_LIMIT = 1_000_000;
export const PER_OBJECT_BUDGET = 10_000_000;

/** The largest list, map or string anywhere in a value (a JSON value, before conversion to CEL). */
export function largestCollection(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let max = 0;
  if (Array.isArray(value)) {
    max = value.length;
    for (const v of value) max = Math.max(max, largestCollection(v));
    return max;
  }
  const entries = Object.values(value);
  max = entries.length;
  for (const v of entries) max = Math.max(max, largestCollection(v));
  return max;
}

/** The bound described above; 0-depth expressions cost their node count (plus the size of what they scan). */
export function costBound(astNodes: number, depth: number, largest: number): number {
  if (depth === 0) return astNodes + largest;
  return astNodes * (largest + 1) ** depth;
}
