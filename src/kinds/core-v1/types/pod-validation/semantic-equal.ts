/**
 * apiequality.Semantic.DeepEqual over decoded JSON: Go cannot tell an absent field from its zero value, nor a nil
 * list or map from an empty one, so neither may this comparison.
 */

function isZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => semanticEqual(item, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) if (!semanticEqual(left[key], right[key])) return false;
    return true;
  }
  return false;
}

/** The paths at which two values differ, each with both sides (the diff appended to "pod updates may not change …"). */
export function differences(a: unknown, b: unknown, path: string, out: [string, unknown, unknown][] = []): [string, unknown, unknown][] {
  if (semanticEqual(a, b)) return out;
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object';
  if (bothObjects && Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => {
      differences(item, b[i], `${path}[${i}]`, out);
    });
  } else if (bothObjects && !Array.isArray(a) && !Array.isArray(b)) {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)]))
      differences(left[key], right[key], path === '' ? key : `${path}.${key}`, out);
  } else out.push([path, a, b]);
  return out;
}
