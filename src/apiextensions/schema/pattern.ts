/**
 * Compiles a schema `pattern` (Go RE2 syntax) to a JavaScript RegExp. RE2's leading inline flags such as `(?i)`
 * become RegExp flags; the rest of RE2 is close enough to the `u`-mode JavaScript dialect for schema patterns.
 * Returns the compile error instead of throwing so callers can report it.
 */
const cache = new Map<string, RegExp | Error>();

export function compileSchemaPattern(pattern: string): RegExp | Error {
  const cached = cache.get(pattern);
  if (cached !== undefined) return cached;
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline !== null) {
    source = source.slice(inline[0].length);
    for (const f of inline[1] ?? '') if (f === 'i' || f === 'm' || f === 's') flags += f;
  }
  let compiled: RegExp | Error;
  try {
    compiled = new RegExp(source, `${flags}u`);
  } catch {
    try {
      compiled = new RegExp(source, flags);
    } catch (err) {
      compiled = err instanceof Error ? err : new Error(String(err));
    }
  }
  cache.set(pattern, compiled);
  return compiled;
}
