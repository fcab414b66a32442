import { aggregateMessage, type FieldError } from './field-error.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';
import { SelectorError } from './selector-error.js';
import { byCodeUnit } from '../util/by-code-unit.js';

/** selection.Operator values, spelled as apimachinery spells them. */
export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64); undefined when Go would return an error. */
export function parseInt64(value: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return undefined;
  const parsed = BigInt(value);
  return parsed < INT64_MIN || parsed > INT64_MAX ? undefined : parsed;
}

/** Path prefix of field errors; `undefined` is the parser's nil path. */
function child(path: string | undefined, name: string): string {
  return path === undefined || path === '' ? name : `${path}.${name}`;
}

export function keyError(key: string, field: string): FieldError | undefined {
  const messages = isQualifiedName(key);
  return messages.length === 0 ? undefined : { type: 'FieldValueInvalid', field, badValue: key, detail: messages.join('; ') };
}

/** labels.NewRequirement: validates and builds, throwing the aggregated field errors as a SelectorError. */
export function newRequirement(key: string, operator: Operator, values: readonly string[], path?: string): Requirement {
  const errors: FieldError[] = [];
  const keyProblem = keyError(key, child(path, 'key'));
  if (keyProblem !== undefined) errors.push(keyProblem);

  const valuePath = child(path, 'values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        errors.push({
          type: 'FieldValueInvalid',
          field: valuePath,
          badValue: values,
          detail: "for 'in', 'notin' operators, values set can't be empty",
        });
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        errors.push({
          type: 'FieldValueInvalid',
          field: valuePath,
          badValue: values,
          detail: 'exact-match compatibility requires one single value',
        });
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        errors.push({
          type: 'FieldValueInvalid',
          field: valuePath,
          badValue: values,
          detail: 'values set must be empty for exists and does not exist',
        });
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        errors.push({
          type: 'FieldValueInvalid',
          field: valuePath,
          badValue: values,
          detail: "for 'Gt', 'Lt' operators, exactly one value is required",
        });
      }
      values.forEach((value, index) => {
        if (parseInt64(value) === undefined) {
          errors.push({
            type: 'FieldValueInvalid',
            field: `${valuePath}[${index}]`,
            badValue: value,
            detail: "for 'Gt', 'Lt' operators, the value must be an integer",
          });
        }
      });
      break;
  }

  values.forEach((value, index) => {
    const messages = isValidLabelValue(value);
    if (messages.length > 0) {
      errors.push({
        type: 'FieldValueInvalid',
        field: `${valuePath}[${index}][${key}]`,
        badValue: value,
        detail: messages.join('; '),
      });
    }
  });

  if (errors.length > 0) throw new SelectorError(aggregateMessage(errors));
  return { key, operator, values };
}

export function requirementMatches(requirement: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, requirement.key);
  const value = has ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case 'in':
    case '=':
    case '==':
      return value !== undefined && requirement.values.includes(value);
    case 'notin':
    case '!=':
      return value === undefined || !requirement.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (value === undefined || requirement.values.length !== 1) return false;
      const actual = parseInt64(value);
      const bound = parseInt64(requirement.values[0] ?? '');
      if (actual === undefined || bound === undefined) return false;
      return requirement.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

/** Requirement.String(): values are printed sorted, as upstream normalises them. */
export function requirementString(requirement: Requirement): string {
  const { key, operator, values } = requirement;
  if (operator === 'exists') return key;
  if (operator === '!') return `!${key}`;
  const joined = values.length === 1 ? (values[0] ?? '') : [...values].sort(byCodeUnit).join(',');
  switch (operator) {
    case 'in':
      return `${key} in (${joined})`;
    case 'notin':
      return `${key} notin (${joined})`;
    case 'gt':
      return `${key}>${joined}`;
    case 'lt':
      return `${key}<${joined}`;
    default:
      return `${key}${operator}${joined}`;
  }
}

/** Requirements are kept sorted by key so the selector string is deterministic. */
export function sortByKey(requirements: readonly Requirement[]): Requirement[] {
  return [...requirements].sort((a, b) => byCodeUnit(a.key, b.key));
}
