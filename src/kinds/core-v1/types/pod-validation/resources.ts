import { type FieldError, fieldError, GoLiteral } from '../../../../api/errors.js';
import { isObject } from '../../../../api/types.js';
import { isQualifiedName } from '../../../../validation/names.js';
import { isExtendedResource, isNative, STANDARD_RESOURCES } from '../../resource-names.js';
import { dnsLabel, indexed, listLength, type Obj } from './common.js';
import { canonicalQuantity, compareQuantities, isNegativeQuantity, quantityNanos } from '../../../../validation/quantity-text.js';
import { text } from '../../../../api/json-fields.js';

/** Resource names and quantities of a container (ValidateContainerResourceRequirements) and of the pod overhead. */

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const HUGEPAGES = 'hugepages-';
const NANOS_PER_UNIT = 1_000_000_000n;

const isHugePages = (name: string): boolean => name.startsWith(HUGEPAGES);
const isStandardResource = (name: string): boolean =>
  STANDARD_RESOURCES.has(name) || isHugePages(name) || name.startsWith(`requests.${HUGEPAGES}`);

/** Only cpu, memory and ephemeral storage may be requested below their limit. */
const overcommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

/** validateContainerResourceName (validateResourceName first, whose early return it does not share). */
function containerResourceName(name: string, path: string): FieldError[] {
  // The names nearly every container uses pass all the checks below.
  if (STANDARD_CONTAINER_RESOURCES.has(name)) return [];
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  if (errs.length === 0 && !name.includes('/') && !isStandardResource(name)) {
    errs.push(fieldError.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
      errs.push(fieldError.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNative(name) && !isExtendedResource(name)) {
    errs.push(fieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/**
 * A cpu, memory or ephemeral-storage amount that is not negative: the common case, which neither the name checks
 * nor the quantity checks can refuse, so it skips them.
 */
const isPlainQuantity = (name: string, quantity: unknown): boolean =>
  STANDARD_CONTAINER_RESOURCES.has(name) && !isNegativeQuantity(quantity);

/** ValidateResourceQuantityValue: non-negative, and whole for extended resources. */
function quantityValueErrors(name: string, quantity: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isNegativeQuantity(quantity)) errs.push(fieldError.invalid(path, canonicalQuantity(quantity), 'must be greater than or equal to 0'));
  if (isExtendedResource(name) && quantityNanos(quantity) % NANOS_PER_UNIT !== 0n) {
    errs.push(fieldError.invalid(path, new GoLiteral(canonicalQuantity(quantity)), 'must be an integer'));
  }
  return errs;
}

/** Hugepages must be a whole multiple of their page size (AllowIndivisibleHugePagesValues is off on create). */
function hugePagesError(name: string, quantity: unknown, path: string): FieldError[] {
  const page = quantityNanos(name.slice(HUGEPAGES.length));
  if (page <= 0n || quantityNanos(quantity) % page === 0n) return [];
  const shown = canonicalQuantity(quantity);
  return [fieldError.invalid(path, shown, `${shown} is not positive integer multiple of ${name}`)];
}

/** validateResourceClaimNames: each claim a name from spec.resourceClaims, no repeats. */
function claimNames(claims: unknown, podClaims: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [claim, i] of indexed(claims)) {
    const at = `${path}[${i}]`;
    const name = text(claim.name);
    const request = text(claim.request);
    if (name === '') {
      errs.push(fieldError.required(at));
      continue;
    }
    if (seen.has(name)) errs.push(fieldError.duplicate(at, name));
    else {
      let key = name;
      if (request !== '') {
        errs.push(...dnsLabel(request, `${at}.request`));
        key += `/${request}`;
      }
      if (seen.has(key)) errs.push(fieldError.duplicate(at, key));
      else if (request === '') for (const k of seen) if (k.startsWith(`${name}/`)) errs.push(fieldError.duplicate(at, name));
      seen.add(key);
    }
    if (!podClaims.has(name)) {
      const known = [...podClaims].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`}`;
      errs.push({ type: 'FieldValueNotFound', field: at, value: name, detail, hasValue: true });
    }
  }
  return errs;
}

/** ValidateContainerResourceRequirements: names, quantities, requests ≤ limits, hugepages with cpu or memory. */
export function validateResourceRequirements(requirements: unknown, podClaims: ReadonlySet<string>, path: string): FieldError[] {
  if (!isObject(requirements)) return [];
  const errs: FieldError[] = [];
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  const limits: Obj = isObject(requirements.limits) ? requirements.limits : {};
  const requests: Obj = isObject(requirements.requests) ? requirements.requests : {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, quantity] of Object.entries(limits)) {
    const at = `${limPath}[${name}]`;
    if (!isPlainQuantity(name, quantity)) errs.push(...containerResourceName(name, at), ...quantityValueErrors(name, quantity, at));
    if (isHugePages(name)) {
      hugePages = true;
      errs.push(...hugePagesError(name, quantity, at));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, quantity] of Object.entries(requests)) {
    const at = `${reqPath}[${name}]`;
    if (!isPlainQuantity(name, quantity)) errs.push(...containerResourceName(name, at), ...quantityValueErrors(name, quantity, at));
    if (name in limits) {
      const limit = limits[name];
      const cmp = compareQuantities(quantity, limit);
      if (cmp !== 0 && !overcommitAllowed(name)) {
        errs.push(
          fieldError.invalid(reqPath, canonicalQuantity(quantity), `must be equal to ${name} limit of ${canonicalQuantity(limit)}`),
        );
      } else if (cmp > 0) {
        errs.push(
          fieldError.invalid(
            reqPath,
            canonicalQuantity(quantity),
            `must be less than or equal to ${name} limit of ${canonicalQuantity(limit)}`,
          ),
        );
      }
    } else if (!overcommitAllowed(name)) {
      errs.push(fieldError.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) {
      hugePages = true;
      errs.push(...hugePagesError(name, quantity, at));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  if (listLength(requirements.claims) > 0) errs.push(...claimNames(requirements.claims, podClaims, `${path}.claims`));
  return errs;
}

/** validateOverhead: the overhead is checked as the limits of a container would be. */
export function validateOverhead(overhead: unknown, path: string): FieldError[] {
  return validateResourceRequirements({ limits: overhead }, new Set(), path);
}
