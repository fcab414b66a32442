const BINARY: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Readonly<Record<string, number>> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** Recently parsed quantity texts: every create of a workload compares the same few requests and limits. */
const parsedValues = new Map<string, number>();
const MAX_PARSED_VALUES = 1024;
const MAX_CACHED_TEXT = 64;

/**
 * The numeric value of a quantity that decoding already accepted, for comparisons between limits (Go's
 * Quantity.Cmp); a double is exact enough to order the quantities people write.
 */
export function quantityValue(value: unknown): number {
  if (typeof value === 'number') return parseValue(String(value));
  if (typeof value !== 'string') return 0;
  let known = parsedValues.get(value);
  if (known === undefined) {
    known = parseValue(value.trim());
    // Bounded: the few quantities objects repeat ("100m", "128Mi") stay, a flood of distinct or long ones cannot grow it.
    if (value.length <= MAX_CACHED_TEXT) {
      if (parsedValues.size >= MAX_PARSED_VALUES) parsedValues.clear();
      parsedValues.set(value, known);
    }
  }
  return known;
}

function parseValue(text: string): number {
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(.*)$/.exec(text);
  if (match === null) return 0;
  const number = Number(match[1]);
  const suffix = match[2] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix] ?? (/^[eE][-+]?\d+$/.test(suffix) ? 10 ** Number(suffix.slice(1)) : 1);
  return number * factor;
}
