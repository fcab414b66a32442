import { SelectorError } from './selector-error.js';
import { byCodeUnit } from '../util/by-code-unit.js';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

export interface FieldSelector {
  /** Sorted as upstream sorts the raw terms; `==` is folded into `=`. */
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  /** A field missing from `fields` compares as the empty string, as fields.Set.Get does. */
  matches(fields: Readonly<Record<string, string>>): boolean;
  /** The exact value a requirement pins `field` to, if any (fields.Selector.RequiresExactMatch). */
  requiresExactMatch(field: string): string | undefined;
}

export function fieldSelectorFromRequirements(requirements: readonly FieldRequirement[]): FieldSelector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (fields) => requirements.every(({ field, operator, value }) => ((fields[field] ?? '') === value) === (operator === '=')),
    requiresExactMatch: (field) => requirements.find((requirement) => requirement.field === field && requirement.operator === '=')?.value,
  };
}

/**
 * fields.ParseSelector: comma-separated `field=value`, `field==value`, `field!=value` terms. Values may escape
 * `\`, `,` and `=` with a backslash; field names cannot be escaped and whitespace is kept verbatim.
 */
export function parseFieldSelector(input: string): FieldSelector {
  const terms = splitTerms(input).sort(byCodeUnit);
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === '') continue;
    const split = splitTerm(term);
    if (split === undefined) throw new SelectorError(`invalid selector: '${input}'; can't understand '${term}'`);
    requirements.push({ field: split.field, operator: split.operator === '!=' ? '!=' : '=', value: unescapeValue(split.rhs) });
  }
  return fieldSelectorFromRequirements(requirements);
}

/** Splits on commas not preceded by a backslash escape; escapes stay in the terms. */
function splitTerms(input: string): string[] {
  if (input === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (escaped) escaped = false;
    else if (ch === '\\') escaped = true;
    else if (ch === ',') {
      terms.push(input.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(input.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** The first operator occurrence splits the term; `==` is tried before `=` so no `=` leaks into the value. */
function splitTerm(term: string): { field: string; operator: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const operator of TERM_OPERATORS) {
      if (term.startsWith(operator, i)) return { field: term.slice(0, i), operator, rhs: term.slice(i + operator.length) };
    }
  }
  return undefined;
}

function unescapeValue(raw: string): string {
  let out = '';
  let escaped = false;
  for (const ch of raw) {
    if (escaped) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') {
        throw new SelectorError(`invalid field selector: invalid escape sequence: \\${ch}`);
      }
      out += ch;
      escaped = false;
    } else if (ch === '\\') {
      escaped = true;
    } else if (ch === ',' || ch === '=') {
      // Upstream formats the rune with %v, which prints its code point number.
      throw new SelectorError(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    } else {
      out += ch;
    }
  }
  if (escaped) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}
