const MAX_CODE_POINT = 0x10ffff;
const LAST_BEFORE_SURROGATES = 0xd7ff;
const FIRST_AFTER_SURROGATES = 0xe000;

/**
 * The smallest key that sorts after every key starting with `prefix`, so that a prefix scan is the index range
 * [prefix, end). SQLite compares TEXT as UTF-8 bytes, which orders by code point, so the end is the prefix with its
 * last code point raised by one (dropping trailing U+10FFFF, which cannot be raised). Undefined when no end exists:
 * for the empty prefix, every key matches.
 */
export function prefixEnd(prefix: string): string | undefined {
  const codePoints = Array.from(prefix);
  while (codePoints.length > 0) {
    const last = (codePoints.pop() as string).codePointAt(0) as number;
    if (last === MAX_CODE_POINT) continue;
    const next = last === LAST_BEFORE_SURROGATES ? FIRST_AFTER_SURROGATES : last + 1;
    return codePoints.join('') + String.fromCodePoint(next);
  }
  return undefined;
}
