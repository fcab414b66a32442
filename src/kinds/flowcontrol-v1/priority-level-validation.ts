import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { isDeepStrictEqual } from 'node:util';
import { mandatoryPriorityLevelSpec } from './bootstrap-configuration.js';
import { validateConditions } from './flow-schema-validation.js';
import { semanticForm } from './schema-parts.js';

/** Rules of pkg/apis/flowcontrol/validation for PriorityLevelConfigurations (Kubernetes 1.32). */

const ENABLEMENTS = ['Exempt', 'Limited'];
const LIMIT_RESPONSES = ['Queue', 'Reject'];
const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits: a hand must be dealt from at most 60 bits of hash. */
const MAX_HASH_BITS = 60;

const int = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** ValidatePriorityLevelConfiguration: the spec, the fixed spec of the mandatory levels, then the status. */
export function validatePriorityLevel(pl: KubeObject): FieldError[] {
  const name = pl.metadata.name ?? '';
  const spec = isObject(pl.spec) ? pl.spec : {};
  const errs = validateSpec(spec, name);
  const mandatory = mandatoryPriorityLevelSpec(name);
  if (mandatory !== undefined) {
    // The exempt level's own settings (its shares and lendable percent) are the administrator's to tune.
    const compared = name === 'exempt' ? { ...spec, exempt: (mandatory as Record<string, unknown>).exempt } : spec;
    if (!isDeepStrictEqual(semanticForm(compared), semanticForm(mandatory))) {
      const detail =
        name === 'exempt'
          ? `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`
          : `spec of '${name}' must equal the fixed value`;
      errs.push(fieldError.invalid('spec', spec, detail));
    }
  }
  errs.push(...validateConditions(pl.status));
  return errs;
}

/** ValidatePriorityLevelConfigurationStatusUpdate: only the conditions are checked. */
export const validatePriorityLevelStatusUpdate = (next: KubeObject): FieldError[] => validateConditions(next.status);

function validateSpec(spec: Record<string, unknown>, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof spec.type === 'string' ? spec.type : '';
  if ((name === 'exempt') !== (type === 'Exempt')) {
    errs.push(fieldError.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  switch (type) {
    case 'Exempt':
      if (isObject(spec.limited)) errs.push(fieldError.forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (isObject(spec.exempt)) errs.push(...validateExempt(spec.exempt));
      break;
    case 'Limited':
      if (isObject(spec.exempt)) errs.push(fieldError.forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (isObject(spec.limited)) errs.push(...validateLimited(spec.limited));
      else errs.push(fieldError.required('spec.limited', 'must not be empty when type is Limited'));
      break;
    default:
      errs.push(fieldError.notSupported('spec.type', type, ENABLEMENTS));
  }
  return errs;
}

const lendableProblem = (path: string, value: unknown): FieldError[] =>
  typeof value === 'number' && (value < 0 || value > 100) ? [fieldError.invalid(path, value, 'must be between 0 and 100, inclusive')] : [];

function validateExempt(exempt: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const shares = exempt.nominalConcurrencyShares;
  if (typeof shares === 'number' && shares < 0) {
    errs.push(fieldError.invalid('spec.exempt.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
  }
  return [...errs, ...lendableProblem('spec.exempt.lendablePercent', exempt.lendablePercent)];
}

/** Zero shares are allowed (ZeroLimitedNominalConcurrencyShares, GA and locked on since 1.30): a level that never dispatches. */
function validateLimited(limited: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const shares = int(limited.nominalConcurrencyShares);
  if (shares < 0) errs.push(fieldError.invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
  errs.push(...validateLimitResponse(isObject(limited.limitResponse) ? limited.limitResponse : {}));
  errs.push(...lendableProblem('spec.limited.lendablePercent', limited.lendablePercent));
  const borrowing = limited.borrowingLimitPercent;
  if (typeof borrowing === 'number' && borrowing < 0) {
    errs.push(fieldError.invalid('spec.limited.borrowingLimitPercent', borrowing, 'if specified, must be a non-negative integer'));
  }
  return errs;
}

function validateLimitResponse(response: Record<string, unknown>): FieldError[] {
  const path = 'spec.limited.limitResponse';
  const type = typeof response.type === 'string' ? response.type : '';
  const queuing = response.queuing;
  switch (type) {
    case 'Reject':
      return isObject(queuing) ? [fieldError.forbidden(`${path}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return isObject(queuing)
        ? validateQueuing(queuing, `${path}.queuing`)
        : [fieldError.required(`${path}.queuing`, 'must not be empty if limited.limitResponse.type is Limited')];
    default:
      return [fieldError.notSupported(`${path}.type`, type, LIMIT_RESPONSES)];
  }
}

function validateQueuing(queuing: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limit = int(queuing.queueLengthLimit);
  const queues = int(queuing.queues);
  const handSize = int(queuing.handSize);
  if (limit <= 0) errs.push(fieldError.invalid(`${path}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) errs.push(fieldError.invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(fieldError.invalid(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errs.push(fieldError.invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(fieldError.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * handSize) > MAX_HASH_BITS) {
    errs.push(
      fieldError.invalid(
        `${path}.handSize`,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  }
  return errs;
}
