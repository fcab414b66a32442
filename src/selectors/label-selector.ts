import { fieldErrorString } from './field-error.js';
import { type ScannedItem, scanLabelSelector, type Token } from './label-lexer.js';
import {
  keyError,
  newRequirement,
  type Operator,
  type Requirement,
  requirementMatches,
  requirementString,
  sortByKey,
} from './requirement.js';
import { SelectorError } from './selector-error.js';

export interface LabelSelector {
  readonly requirements: readonly Requirement[];
  /** True when the selector does not restrict anything (labels.Everything). */
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** labels.Selector.String(). */
  toString(): string;
}

export function selectorFromRequirements(requirements: readonly Requirement[]): LabelSelector {
  const sorted = sortByKey(requirements);
  return {
    requirements: sorted,
    empty: sorted.length === 0,
    matches: (labels) => sorted.every((requirement) => requirementMatches(requirement, labels ?? {})),
    toString: () => sorted.map(requirementString).join(','),
  };
}

/** labels.Nothing(): what a nil metav1.LabelSelector turns into. */
export const NOTHING_SELECTOR: LabelSelector = {
  requirements: [],
  empty: false,
  matches: () => false,
  toString: () => '',
};

/**
 * labels.Parse: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma-separated.
 * Throws SelectorError with apimachinery's message on invalid input (R: served as 400 BadRequest).
 */
export function parseLabelSelector(input: string): LabelSelector {
  return selectorFromRequirements(new Parser(scanLabelSelector(input)).parse());
}

/** In a value position the keywords `in`/`notin` are ordinary identifiers. */
type Context = 'keyAndOperator' | 'values';

class Parser {
  private readonly items: readonly ScannedItem[];
  private position = 0;

  constructor(items: readonly ScannedItem[]) {
    this.items = items;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead('values');
      if (token === 'end') return requirements;
      if (token !== 'identifier' && token !== 'doesNotExist') {
        throw new SelectorError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.parseRequirementWrapped());
      const after = this.consume('values');
      if (after.token === 'end') return requirements;
      if (after.token !== 'comma') {
        throw new SelectorError(`found '${after.literal}', expected: ',' or 'end of string'`);
      }
      const next = this.lookahead('values');
      if (next.token !== 'identifier' && next.token !== 'doesNotExist') {
        throw new SelectorError(`found '${next.literal}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirementWrapped(): Requirement {
    try {
      return this.parseRequirement();
    } catch (error) {
      if (error instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${error.message}`);
      throw error;
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator !== undefined) return newRequirement(key, operator, []);
    const binary = this.parseOperator();
    const values = binary === 'in' || binary === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, binary, [...values].sort());
  }

  /** Returns the unary operator when the key stands alone (`a` → exists, `!a` → does-not-exist). */
  private parseKeyAndInferOperator(): { key: string; operator: Operator | undefined } {
    let item = this.consume('values');
    let negated = false;
    if (item.token === 'doesNotExist') {
      negated = true;
      item = this.consume('values');
    }
    if (item.token !== 'identifier') throw new SelectorError(`found '${item.literal}', expected: identifier`);
    const problem = keyError(item.literal, '<nil>');
    if (problem !== undefined) throw new SelectorError(fieldErrorString(problem));
    const next = this.lookahead('values').token;
    if (negated) return { key: item.literal, operator: '!' };
    return { key: item.literal, operator: next === 'end' || next === 'comma' ? 'exists' : undefined };
  }

  private parseOperator(): Operator {
    const { token, literal } = this.consume('keyAndOperator');
    const operator = OPERATOR_TOKENS.get(token);
    if (operator === undefined) {
      throw new SelectorError(`found '${literal}', expected: in, notin, =, ==, !=, gt, lt`);
    }
    return operator;
  }

  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.token !== 'openPar') throw new SelectorError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead('values');
    if (token === 'closePar') {
      this.consume('values');
      return new Set(['']);
    }
    if (token !== 'identifier' && token !== 'comma') {
      throw new SelectorError(`found '${literal}', expected: ',', ')' or identifier`);
    }
    const values = this.parseIdentifiersList();
    if (this.consume('values').token !== 'closePar') throw new SelectorError(`found '${literal}', expected: ')'`);
    return values;
  }

  /** A comma-separated list where empty entries (`(,a)`, `(a,,b)`, `(a,)`) stand for the empty string. */
  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume('values');
      if (token === 'identifier') {
        values.add(literal);
        const next = this.lookahead('values');
        if (next.token === 'comma') continue;
        if (next.token === 'closePar') return values;
        throw new SelectorError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token !== 'comma') throw new SelectorError(`found '${literal}', expected: ',', or identifier`);
      if (values.size === 0) values.add('');
      const next = this.lookahead('values').token;
      if (next === 'closePar') {
        values.add('');
        return values;
      }
      if (next === 'comma') {
        this.consume('values');
        values.add('');
      }
    }
  }

  private parseExactValue(): Set<string> {
    const ahead = this.lookahead('values').token;
    if (ahead === 'end' || ahead === 'comma') return new Set(['']);
    const { token, literal } = this.consume('values');
    if (token === 'identifier') return new Set([literal]);
    throw new SelectorError(`found '${literal}', expected: identifier`);
  }

  private lookahead(context: Context): ScannedItem {
    return this.contextual(this.items[this.position], context);
  }

  private consume(context: Context): ScannedItem {
    const item = this.items[this.position];
    this.position++;
    return this.contextual(item, context);
  }

  private contextual(item: ScannedItem | undefined, context: Context): ScannedItem {
    const actual = item ?? { token: 'end', literal: '' };
    if (context === 'values' && (actual.token === 'in' || actual.token === 'notIn')) {
      return { token: 'identifier', literal: actual.literal };
    }
    return actual;
  }
}

const OPERATOR_TOKENS: ReadonlyMap<Token, Operator> = new Map<Token, Operator>([
  ['in', 'in'],
  ['equals', '='],
  ['doubleEquals', '=='],
  ['greaterThan', 'gt'],
  ['lessThan', 'lt'],
  ['notIn', 'notin'],
  ['notEquals', '!='],
]);
