import { type FieldPath, parseFieldPath, valuesAt } from './field-path.js';

/**
 * When a dependent counts as using its providers: comma-separated comparisons that must all hold, each
 * `<path> == <value>` or `<path> != <value>` (`=` is accepted for `==`), e.g. `.status.phase != Succeeded` or
 * `.status.phase!=Succeeded, .status.phase!=Failed`. The path is a FieldPath without `[*]`; the value is taken
 * literally after trimming spaces, and may be double-quoted to keep spaces or commas. A missing field, or one
 * holding a non-string, compares as its JSON text ("" when missing), so `.status.phase == ""` means "not set".
 */
export interface Condition {
  readonly text: string;
  holds(obj: unknown): boolean;
}

interface Comparison {
  readonly path: FieldPath;
  readonly equal: boolean;
  readonly value: string;
}

const ALWAYS: Condition = { text: '', holds: () => true };

/** Parses a condition; the empty string always holds. Throws an Error that says what is wrong. */
export function parseCondition(text: string): Condition {
  if (text.trim() === '') return ALWAYS;
  const comparisons = splitOutsideQuotes(text).map(parseComparison);
  return { text, holds: (obj) => comparisons.every((c) => (fieldText(obj, c.path) === c.value) === c.equal) };
}

function parseComparison(term: string): Comparison {
  const match = /^\s*(\S+?)\s*(==|!=|=)\s*(.*?)\s*$/.exec(term);
  if (match === null) throw new Error(`"${term.trim()}" is not of the form <path> == <value> or <path> != <value>`);
  const path = parseFieldPath(match[1] as string);
  if (path.steps.some((step) => step.eachMember)) throw new Error(`"${path.text}": a condition compares one field, so [*] is not allowed`);
  return { path, equal: match[2] !== '!=', value: unquote(match[3] as string) };
}

function unquote(raw: string): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) return JSON.parse(raw) as string;
  if (raw.includes('"')) throw new Error(`${raw}: a value with a quote must be a complete double-quoted string`);
  return raw;
}

function splitOutsideQuotes(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && quoted) i++;
    else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) throw new Error('unterminated double quote');
  terms.push(text.slice(start));
  return terms;
}

function fieldText(obj: unknown, path: FieldPath): string {
  const value = valuesAt(obj, path)[0];
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
