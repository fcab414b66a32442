/**
 * A JSON value as CEL sees an untyped (dyn) Kubernetes object (R11.138): integral numbers are `int`, other numbers
 * `double`, objects maps, arrays lists. Built once per evaluation input; the JSON itself is not changed.
 */
export function celValueOfJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(celValueOfJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = celValueOfJson(v);
    return out;
  }
  return value;
}
