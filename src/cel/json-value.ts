/**
 * A JSON value as CEL sees an untyped (dyn) Kubernetes object (R11.138): integral numbers are `int`, other numbers
 * `double`, objects maps, arrays lists. The JSON itself is not changed: subtrees without numbers are shared with it,
 * so a typical object (strings and maps only) costs one walk and no copies.
 */

/** A converted input and the largest list, map or string in it, which bounds comprehension cost (cost.ts). */
export interface CelInput {
  readonly value: unknown;
  readonly largest: number;
}

interface Walk {
  largest: number;
}

function convert(value: unknown, walk: Walk): unknown {
  if (typeof value === 'string') {
    if (value.length > walk.largest) walk.largest = value.length;
    return value;
  }
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length > walk.largest) walk.largest = value.length;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const converted = convert(item, walk);
      if (copy !== undefined) copy.push(converted);
      else if (converted !== item) {
        copy = value.slice(0, i);
        copy.push(converted);
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  let size = 0;
  for (const key in record) {
    size++;
    const item = record[key];
    const converted = convert(item, walk);
    if (converted !== item) {
      copy ??= { ...record };
      copy[key] = converted;
    }
  }
  if (size > walk.largest) walk.largest = size;
  return copy ?? value;
}

export function celInputOfJson(value: unknown): CelInput {
  const walk: Walk = { largest: 0 };
  return { value: convert(value, walk), largest: walk.largest };
}

export function celValueOfJson(value: unknown): unknown {
  return convert(value, { largest: 0 });
}
