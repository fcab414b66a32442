/** Tokens of the label selector grammar, scanned the way apimachinery's `labels.Lexer` does. */

export type Token =
  | 'error'
  | 'end'
  | 'closePar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

export interface ScannedItem {
  readonly token: Token;
  readonly literal: string;
}

const LITERAL_TOKENS: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', 'closePar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** Scans the whole input; the last item is always `end`. */
export function scanLabelSelector(input: string): ScannedItem[] {
  const items: ScannedItem[] = [];
  let pos = 0;
  const peek = (): string => input.charAt(pos);

  for (;;) {
    while (pos < input.length && isWhitespace(peek())) pos++;
    if (pos >= input.length) {
      items.push({ token: 'end', literal: '' });
      return items;
    }
    if (isSpecialSymbol(peek())) items.push(scanSpecialSymbol());
    else items.push(scanIdentifierOrKeyword());
  }

  function scanIdentifierOrKeyword(): ScannedItem {
    const start = pos;
    while (pos < input.length && !isSpecialSymbol(peek()) && !isWhitespace(peek())) pos++;
    const literal = input.slice(start, pos);
    return { token: LITERAL_TOKENS.get(literal) ?? 'identifier', literal };
  }

  // Longest operator wins: "!=" over "!", "==" over "=".
  function scanSpecialSymbol(): ScannedItem {
    let buffer = '';
    let last: ScannedItem | undefined;
    while (pos < input.length && isSpecialSymbol(peek())) {
      const candidate = buffer + peek();
      const token = LITERAL_TOKENS.get(candidate);
      if (token !== undefined) {
        buffer = candidate;
        last = { token, literal: candidate };
        pos++;
      } else if (last !== undefined) {
        break;
      } else {
        buffer = candidate;
        pos++;
      }
    }
    return last ?? { token: 'error', literal: `error expected: keyword found '${buffer}'` };
  }
}
