import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { goPointerText } from '../../validation/go-literal.js';
import { isQualifiedName } from '../../validation/names.js';
import { intAt, nonNegative, objectAt } from '../apps-v1/workload-validation.js';
import { text } from '../../api/json-fields.js';

/**
 * The policies of a batch/v1 JobSpec as pkg/apis/batch/validation checks them: podFailurePolicy,
 * successPolicy (with the index-interval format status.completedIndexes shares) and podReplacementPolicy.
 */

type Obj = Record<string, unknown>;

const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_CONDITION_PATTERNS = 20;
const MAX_SUCCESS_POLICY_RULES = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;

const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** field.TooMany: the count is shown as the value. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: actual, detail: `must have at most ${max} items`, hasValue: true };
}

/** field.Invalid with field.OmitValueType: the message carries no value. */
function invalidWithoutValue(field: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, detail, hasValue: false };
}

/** `valid values: ["A" "B"]` — Go's %q of a string slice. */
const validValues = (values: readonly string[]): string => `valid values: [${values.map((v) => goQuote(v)).join(' ')}]`;

const goInt32Slice = (values: unknown): GoLiteral =>
  new GoLiteral(Array.isArray(values) ? `[]int32{${values.map((v) => String(v)).join(', ')}}` : '[]int32(nil)');

function validateOnExitCodes(onExitCodes: Obj, path: string, containerNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const operator = text(onExitCodes.operator);
  if (operator === '') errors.push(fieldError.required(`${path}.operator`, validValues(EXIT_CODE_OPERATORS)));
  else if (!EXIT_CODE_OPERATORS.includes(operator)) errors.push(fieldError.notSupported(`${path}.operator`, operator, EXIT_CODE_OPERATORS));
  const containerName = onExitCodes.containerName;
  if (typeof containerName === 'string' && !containerNames.has(containerName)) {
    errors.push(
      fieldError.invalid(`${path}.containerName`, containerName, 'must be one of the container or initContainer names in the pod template'),
    );
  }
  const valuesPath = `${path}.values`;
  const values = list(onExitCodes.values).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) errors.push(fieldError.invalid(valuesPath, goInt32Slice(onExitCodes.values), 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES) errors.push(tooMany(valuesPath, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((value, index) => {
    const at = `${valuesPath}[${index}]`;
    if (operator === 'In' && value === 0) errors.push(fieldError.invalid(at, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errors.push(fieldError.duplicate(at, value));
    else seen.add(value);
    if (index > 0 && (values[index - 1] ?? 0) > value) ordered = false;
  });
  if (!ordered) errors.push(fieldError.invalid(valuesPath, goInt32Slice(values), 'must be ordered'));
  return errors;
}

function validateOnPodConditions(patterns: unknown[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (patterns.length > MAX_CONDITION_PATTERNS) errors.push(tooMany(path, patterns.length, MAX_CONDITION_PATTERNS));
  patterns.forEach((value, index) => {
    const pattern = objectAt(value);
    const at = `${path}[${index}]`;
    const type = text(pattern.type);
    for (const detail of isQualifiedName(type)) errors.push(fieldError.invalid(`${at}.type`, type, detail));
    const status = text(pattern.status);
    if (status === '') errors.push(fieldError.required(`${at}.status`, validValues(CONDITION_STATUSES)));
    else if (!CONDITION_STATUSES.includes(status)) errors.push(fieldError.notSupported(`${at}.status`, status, CONDITION_STATUSES));
  });
  return errors;
}

function validateFailurePolicyRule(spec: Obj, rule: Obj, path: string, containerNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const action = text(rule.action);
  if (action === '') errors.push(fieldError.required(`${path}.action`, validValues(ACTIONS)));
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined || spec.backoffLimitPerIndex === null) {
      errors.push(fieldError.invalid(`${path}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    }
  } else if (!ACTIONS.includes(action)) errors.push(fieldError.notSupported(`${path}.action`, action, ACTIONS));
  const hasExitCodes = isObject(rule.onExitCodes);
  const conditions = list(rule.onPodConditions);
  if (hasExitCodes) errors.push(...validateOnExitCodes(objectAt(rule.onExitCodes), `${path}.onExitCodes`, containerNames));
  if (conditions.length > 0) errors.push(...validateOnPodConditions(conditions, `${path}.onPodConditions`));
  if (hasExitCodes && conditions.length > 0) {
    errors.push(invalidWithoutValue(path, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  }
  if (!hasExitCodes && conditions.length === 0)
    errors.push(invalidWithoutValue(path, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errors;
}

/** validatePodFailurePolicy. */
export function validatePodFailurePolicy(spec: Obj, path: string): FieldError[] {
  const rules = list(objectAt(spec.podFailurePolicy).rules);
  const rulesPath = `${path}.rules`;
  const errors: FieldError[] = [];
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errors.push(tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = objectAt(objectAt(spec.template).spec);
  const containerNames = new Set([...list(podSpec.containers), ...list(podSpec.initContainers)].map((c) => text(objectAt(c).name)));
  rules.forEach((rule, index) => {
    errors.push(...validateFailurePolicyRule(spec, objectAt(rule), `${rulesPath}[${index}]`, containerNames));
  });
  return errors;
}

/** validatePodReplacementPolicy: with a podFailurePolicy only Failed is allowed. */
export function validatePodReplacementPolicy(spec: Obj, path: string): FieldError[] {
  const policy = spec.podReplacementPolicy;
  if (typeof policy !== 'string') return [];
  if (spec.podFailurePolicy !== undefined && spec.podFailurePolicy !== null) {
    return policy === 'Failed' ? [] : [fieldError.notSupported(path, policy, ['Failed'])];
  }
  const supported = ['Failed', 'TerminatingOrFailed'];
  return supported.includes(policy) ? [] : [fieldError.notSupported(path, policy, supported)];
}

/** strconv.Atoi of a decimal with an optional sign, or undefined where Go returns an error. */
function atoi(value: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : undefined;
}

/** parseIndexInterval: "x" or "x-y" with x < y < completions. Throws the message Go's error carries. */
function parseIndexInterval(interval: string, completions: number): [number, number] {
  const limits = interval.split('-');
  if (limits.length > 2) {
    throw new Error(
      `the fragment ${goQuote(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`,
    );
  }
  const first = limits[0] ?? '';
  const x = atoi(first);
  if (x === undefined) throw new Error(`cannot convert string to integer for index: ${goQuote(first)}`);
  if (x >= completions) throw new Error(`too large index: ${goQuote(first)}`);
  if (limits.length === 1) return [x, x];
  const second = limits[1] ?? '';
  const y = atoi(second);
  if (y === undefined) throw new Error(`cannot convert string to integer for index: ${goQuote(second)}`);
  if (y >= completions) throw new Error(`too large index: ${goQuote(second)}`);
  if (x >= y) throw new Error(`non-increasing order, previous: ${x}, current: ${y}`);
  return [x, y];
}

/** validateIndexesFormat: the number of indexes a comma-separated interval list names; throws on a bad one. */
export function countIndexes(indexes: string, completions: number): number {
  if (indexes === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of indexes.split(',')) {
    const [x, y] = parseIndexInterval(interval, completions);
    if (last !== undefined && last >= x) throw new Error(`non-increasing order, previous: ${last}, current: ${x}`);
    total += y - x + 1;
    last = y;
  }
  return total;
}

function validateSuccessPolicyRule(spec: Obj, rule: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const indexes = rule.succeededIndexes;
  const count = rule.succeededCount;
  if (typeof indexes !== 'string' && typeof count !== 'number') {
    errors.push(fieldError.required(path, 'at least one of succeededCount or succeededIndexes must be specified'));
  }
  const completions = intAt(spec, 'completions');
  let total = 0;
  if (typeof indexes === 'string') {
    const indexesPath = `${path}.succeededIndexes`;
    if (indexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errors.push(fieldError.tooLong(indexesPath, MAX_SUCCEEDED_INDEXES_LENGTH));
    try {
      total = countIndexes(indexes, completions);
    } catch (err) {
      errors.push(fieldError.invalid(indexesPath, indexes, `error parsing succeededIndexes: ${(err as Error).message}`));
    }
  }
  if (typeof count === 'number') {
    const countPath = `${path}.succeededCount`;
    errors.push(...nonNegative(count, countPath));
    if (count > completions) {
      errors.push(
        fieldError.invalid(countPath, count, `must be less than or equal to ${completions} (the number of specified completions)`),
      );
    }
    if (typeof indexes === 'string' && count > total) {
      errors.push(
        fieldError.invalid(
          countPath,
          count,
          `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
        ),
      );
    }
  }
  return errors;
}

/** validateSuccessPolicy (for Indexed Jobs; the caller refuses a successPolicy on other ones). */
export function validateSuccessPolicy(spec: Obj, path: string): FieldError[] {
  const rules = list(objectAt(spec.successPolicy).rules);
  const rulesPath = `${path}.rules`;
  const errors: FieldError[] = [];
  if (rules.length === 0)
    errors.push(fieldError.required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errors.push(tooMany(rulesPath, rules.length, MAX_SUCCESS_POLICY_RULES));
  rules.forEach((rule, index) => {
    errors.push(...validateSuccessPolicyRule(spec, objectAt(rule), `${rulesPath}[${index}]`));
  });
  return errors;
}

/** batch.SuccessPolicy as `%#v` prints it (its rules' pointers as addresses). */
export function goSuccessPolicy(policy: unknown): GoLiteral {
  const rules = objectAt(policy).rules;
  const shown = Array.isArray(rules)
    ? `[]batch.SuccessPolicyRule{${rules
        .map((r) => {
          const rule = objectAt(r);
          return `batch.SuccessPolicyRule{SucceededIndexes:${goPointerText('string', rule.succeededIndexes)}, SucceededCount:${goPointerText('int32', rule.succeededCount)}}`;
        })
        .join(', ')}}`
    : '[]batch.SuccessPolicyRule(nil)';
  return new GoLiteral(`batch.SuccessPolicy{Rules:${shown}}`);
}
