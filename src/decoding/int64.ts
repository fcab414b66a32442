const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Whether a JSON number literal decodes into a Go int64: an integer literal (no fraction, no exponent) in range.
 * The literal is needed because a double cannot tell 2^63 - 1, which fits, from 2^63, which does not.
 */
export function isInt64Literal(literal: string): boolean {
  if (!/^-?(0|[1-9][0-9]*)$/.test(literal)) return false;
  const value = BigInt(literal);
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * The source text of the number given for top-level `key` in a small flat JSON object (DeleteOptions), or
 * undefined when the text has none there.
 */
export function topLevelNumberLiteral(json: string, key: string): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*(-?[0-9][0-9eE.+-]*)`).exec(json);
  return match?.[1];
}
