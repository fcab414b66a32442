import { isObject } from '../../../api/types.js';
import { parseFieldSelector } from '../../../selectors/field-selector.js';
import { parseLabelSelector } from '../../../selectors/label-selector.js';
import { newRequirement, type Operator } from '../../../selectors/requirement.js';

/**
 * How much of a review's field and label selectors the server could use. Selectors only ever narrow an
 * access check, so a part that does not parse is dropped and reported in status.evaluationError instead of
 * failing the review (pkg/registry/authorization/util BuildEvaluationError).
 */

type Json = Readonly<Record<string, unknown>>;

/** How many requirements survived and whether any were dropped. */
interface Parsed {
  readonly usable: number;
  readonly failed: boolean;
}

const NOTHING: Parsed = { usable: 0, failed: false };

const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string => (typeof value === 'string' ? value : '');

function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/** Requirements win over rawSelector (validation forbids sending both). */
function parseSelector(value: unknown, parseRaw: (raw: string) => unknown, usable: (requirement: Json) => boolean): Parsed {
  if (!isObject(value)) return NOTHING;
  const requirements = asArray(value.requirements).map((r) => (isObject(r) ? r : {}));
  if (requirements.length > 0) {
    const ok = requirements.filter(usable).length;
    return { usable: ok, failed: ok < requirements.length };
  }
  const raw = asString(value.rawSelector);
  if (raw === '') return NOTHING;
  return parses(() => parseRaw(raw)) ? { usable: 1, failed: false } : { usable: 0, failed: true };
}

/** Field selectors support exactly one value, and only In (=) and NotIn (!=). */
function usableFieldRequirement(requirement: Json): boolean {
  const values = asArray(requirement.values);
  const operator = asString(requirement.operator);
  return (operator === 'In' || operator === 'NotIn') && values.length === 1;
}

const LABEL_OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

function usableLabelRequirement(requirement: Json): boolean {
  const operator = LABEL_OPERATORS.get(asString(requirement.operator));
  if (operator === undefined) return false;
  const values = asArray(requirement.values).map(asString);
  return parses(() => newRequirement(asString(requirement.key), operator, values));
}

function describe(parsed: Parsed, field: string): string[] {
  if (!parsed.failed) return [];
  return [`spec.resourceAttributes.${field} ${parsed.usable > 0 ? 'partially ignored' : 'ignored'} due to parse error`];
}

/** The evaluationError text for a review's resource attributes; empty when every selector part was usable. */
export function selectorEvaluationError(resourceAttributes: Json): string {
  const fields = parseSelector(resourceAttributes.fieldSelector, parseFieldSelector, usableFieldRequirement);
  const labels = parseSelector(resourceAttributes.labelSelector, parseLabelSelector, usableLabelRequirement);
  return [...describe(fields, 'fieldSelector'), ...describe(labels, 'labelSelector')].join('; ');
}
