import { isObject } from '../api/types.js';
import { type FieldError, fieldError, GoLiteral } from '../api/errors.js';
import { goJsonText, goQuote } from '../util/go-quote.js';
import { type LabelSelector, NOTHING_SELECTOR, selectorFromRequirements } from './label-selector.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';
import { newRequirement, type Operator, type Requirement } from './requirement.js';
import { SelectorError } from './selector-error.js';

/** metav1.LabelSelector as it appears in Deployment/ReplicaSet/Job specs. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface LabelSelectorValidationOptions {
  /** Tolerates invalid values in matchExpressions, as updates of already-stored objects do. */
  allowInvalidLabelValueInSelector?: boolean;
}

const OBJECT_OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/** The keys in sorted order. Selectors usually list them sorted already, which one pass confirms without a sort. */
function sortedKeys(record: Readonly<Record<string, string>>): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return keys.sort();
  return keys;
}

function labelNameErrors(name: string, field: string): FieldError[] {
  return isQualifiedName(name).map((detail) => fieldError.invalid(field, name, detail));
}

/**
 * metav1validation.ValidateLabelSelector: the field errors an object's selector produces under `path`
 * (e.g. "spec.selector"). Map keys are visited in sorted order to keep the output stable.
 */
export function validateLabelSelector(
  selector: LabelSelectorObject | undefined,
  path: string,
  options: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (selector === undefined) return [];
  const errors: FieldError[] = [];
  const labelsPath = `${path}.matchLabels`;
  const matchLabels = selector.matchLabels ?? {};
  for (const key of sortedKeys(matchLabels)) {
    const value = matchLabels[key] ?? '';
    errors.push(...labelNameErrors(key, labelsPath));
    for (const detail of isValidLabelValue(value)) {
      errors.push(fieldError.invalid(labelsPath, value, detail));
    }
  }
  (selector.matchExpressions ?? []).forEach((expression, index) => {
    const at = `${path}.matchExpressions[${index}]`;
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errors.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errors.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
        break;
      default:
        // Upstream's operator is a named string type, which field.Error prints through encoding/json.
        errors.push(
          fieldError.invalid(`${at}.operator`, new GoLiteral(goJsonText(String(expression.operator))), 'not a valid selector operator'),
        );
    }
    errors.push(...labelNameErrors(expression.key, `${at}.key`));
    if (options.allowInvalidLabelValueInSelector !== true) {
      values.forEach((value, valueIndex) => {
        for (const detail of isValidLabelValue(value)) {
          errors.push(fieldError.invalid(`${at}.values[${valueIndex}]`, value, detail));
        }
      });
    }
  });
  return errors;
}

/** Thrown by labelSelectorFromObject; `causes` are the field errors (422 Invalid when surfaced). */
export class InvalidLabelSelectorError extends Error {
  readonly causes: readonly FieldError[];

  constructor(causes: readonly FieldError[], message: string) {
    super(message);
    this.name = 'InvalidLabelSelectorError';
    this.causes = causes;
  }
}

/**
 * metav1.LabelSelectorAsSelector after validation: absent → matches nothing, `{}` → matches everything.
 * Throws InvalidLabelSelectorError carrying the field causes when the selector is invalid.
 */
export function labelSelectorFromObject(selector: LabelSelectorObject | undefined | null, path = 'selector'): LabelSelector {
  if (selector === undefined || selector === null) return NOTHING_SELECTOR;
  const causes = validateLabelSelector(selector, path);
  if (causes.length > 0) throw new InvalidLabelSelectorError(causes, `invalid label selector at ${path}`);
  return labelSelectorAsSelector(selector);
}

/**
 * metav1.LabelSelectorAsSelector without prior validation; throws SelectorError with upstream's message when a
 * requirement cannot be built. Used where upstream converts stored selectors (e.g. printers).
 */
export function labelSelectorAsSelector(selector: LabelSelectorObject | undefined | null): LabelSelector {
  if (selector === undefined || selector === null) return NOTHING_SELECTOR;
  const matchLabels = selector.matchLabels ?? {};
  const expressions = selector.matchExpressions ?? [];
  const requirements: Requirement[] = [];
  for (const key of sortedKeys(matchLabels)) requirements.push(newRequirement(key, '=', [matchLabels[key] ?? '']));
  for (const expression of expressions) {
    const operator = OBJECT_OPERATORS.get(expression.operator);
    if (operator === undefined) {
      throw new SelectorError(`${goQuote(expression.operator)} is not a valid label selector operator`);
    }
    requirements.push(newRequirement(expression.key, operator, [...(expression.values ?? [])]));
  }
  return selectorFromRequirements(requirements);
}

/** Reads an untyped `spec.selector` value into a LabelSelectorObject, or undefined when absent. */
export function asLabelSelectorObject(value: unknown): LabelSelectorObject | undefined {
  return isObject(value) ? (value as LabelSelectorObject) : undefined;
}
