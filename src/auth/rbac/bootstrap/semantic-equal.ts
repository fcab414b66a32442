/**
 * apimachinery's equality.Semantic.DeepEqual over JSON values: like deep equality, except that an absent, null,
 * empty list and empty map all count as the same "nothing", so a field the server omitted equals an empty one.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isNothing(a) || isNothing(b)) return isNothing(a) && isNothing(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => semanticEqual(item, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) if (!semanticEqual(left[key], right[key])) return false;
    return true;
  }
  return a === b;
}

function isNothing(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
