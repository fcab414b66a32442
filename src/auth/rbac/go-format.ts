/**
 * Kubernetes builds its RBAC messages with Go's fmt verbs; clients and tests compare them byte for byte, so the
 * same quoting is reproduced here.
 */

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's %q of a string (strconv.Quote). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (PRINTABLE.test(ch)) out += ch;
    else {
      const code = ch.codePointAt(0) ?? 0;
      if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else out += `\\U${code.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** The message of apimachinery's errors.NewAggregate: one message alone, several (deduplicated) in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (messages.length === 1 || unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}
