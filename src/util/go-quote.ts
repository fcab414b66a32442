/**
 * Go's `%q` / strconv.Quote, which apimachinery uses to print bad values in field errors. Messages the server
 * returns must match byte for byte, so escapes follow Go rather than JSON.
 */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    out += escapeRune(ch, code);
  }
  return `${out}"`;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\u000b': '\\v',
};

function escapeRune(ch: string, code: number): string {
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return simple;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (isGoPrintable(ch)) return ch;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isGoPrintable(ch: string): boolean {
  if (ch === ' ') return true;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/**
 * Go's time package quotes with its own helper, not strconv: printable ASCII as is (`"` and `\` escaped), every
 * other rune as \x escapes of its UTF-8 bytes. time.ParseDuration's messages, which the apiserver returns for a
 * bad timeout, embed it.
 */
export function goTimeQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

/** encoding/json output: like JSON.stringify but with Go's HTML-safe escapes (field.Error prints named types so). */
export function goJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
