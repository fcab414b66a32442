import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { isQualifiedName } from '../../validation/names.js';
import { quantityValue } from '../../validation/quantity-value.js';
import { validateContainerResourceName, validateResourceName } from './resource-names.js';

/**
 * ValidateLimitRange of pkg/apis/core/validation: standard or qualified types and resource names, one item per
 * type, defaults only for non-Pod items, a storage bound for PersistentVolumeClaim items, and for each resource
 * min <= defaultRequest <= default <= max and a maxLimitRequestRatio of at least 1 and at most max/min.
 */

type Quantities = Record<string, unknown>;

const itemsOf = (lr: KubeObject): Record<string, unknown>[] => (isObject(lr.spec) ? objects(lr.spec.limits) : []);
const quantities = (value: unknown): Quantities => (isObject(value) ? value : {});
const shown = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** One resource's bounds in an item must be ordered min <= defaultRequest <= default <= max (ValidateLimitRange). */
function validateOrder(path: string, item: Record<string, unknown>): FieldError[] {
  const min = quantities(item.min);
  const max = quantities(item.max);
  const podItem = item.type === 'Pod';
  const def = podItem ? {} : quantities(item.default);
  const req = podItem ? {} : quantities(item.defaultRequest);
  const errs: FieldError[] = [];
  const gt = (a: unknown, b: unknown): boolean => quantityValue(a) > quantityValue(b);
  const ratios = quantities(item.maxLimitRequestRatio);
  const keys = new Set([...Object.keys(max), ...Object.keys(min), ...Object.keys(def), ...Object.keys(req), ...Object.keys(ratios)]);
  for (const k of keys) {
    const [mn, mx, d, r, ratio] = [min[k], max[k], def[k], req[k], ratios[k]];
    if (mn !== undefined && mx !== undefined && gt(mn, mx)) {
      errs.push(fieldError.invalid(`${path}.min[${k}]`, shown(mn), `min value ${shown(mn)} is greater than max value ${shown(mx)}`));
    }
    if (r !== undefined && mn !== undefined && gt(mn, r)) {
      errs.push(
        fieldError.invalid(
          `${path}.defaultRequest[${k}]`,
          shown(r),
          `min value ${shown(mn)} is greater than default request value ${shown(r)}`,
        ),
      );
    }
    if (r !== undefined && mx !== undefined && gt(r, mx)) {
      errs.push(
        fieldError.invalid(
          `${path}.defaultRequest[${k}]`,
          shown(r),
          `default request value ${shown(r)} is greater than max value ${shown(mx)}`,
        ),
      );
    }
    if (r !== undefined && d !== undefined && gt(r, d)) {
      errs.push(
        fieldError.invalid(
          `${path}.defaultRequest[${k}]`,
          shown(r),
          `default request value ${shown(r)} is greater than default limit value ${shown(d)}`,
        ),
      );
    }
    if (d !== undefined && mn !== undefined && gt(mn, d)) {
      errs.push(fieldError.invalid(`${path}.default[${k}]`, shown(mn), `min value ${shown(mn)} is greater than default value ${shown(d)}`));
    }
    if (d !== undefined && mx !== undefined && gt(d, mx)) {
      errs.push(fieldError.invalid(`${path}.default[${k}]`, shown(mx), `default value ${shown(d)} is greater than max value ${shown(mx)}`));
    }
    if (ratio !== undefined) errs.push(...validateRatio(`${path}.maxLimitRequestRatio[${k}]`, ratio, mn, mx));
  }
  return errs;
}

/** A limit/request ratio is at least 1, and no more than max/min where both bounds are set (Go's %f: 6 decimals). */
function validateRatio(path: string, ratio: unknown, min: unknown, max: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const value = quantityValue(ratio);
  if (value < 1) errs.push(fieldError.invalid(path, shown(ratio), `ratio ${shown(ratio)} is less than 1`));
  if (min !== undefined && max !== undefined) {
    // Kubernetes compares in milli-units, so the ratio keeps three decimals.
    const limit = quantityValue(max) / quantityValue(min);
    if (Math.ceil(value * 1000) / 1000 > limit) {
      errs.push(fieldError.invalid(path, shown(ratio), `ratio ${shown(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
    }
  }
  return errs;
}

const STANDARD_LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];

/** validateLimitRangeTypeName: a standard type or a qualified name with a domain. */
function validateTypeName(type: string, path: string): FieldError[] {
  const errs = isQualifiedName(type).map((msg) => fieldError.invalid(path, type, msg));
  if (errs.length > 0) return errs;
  if (!type.includes('/') && !STANDARD_LIMIT_TYPES.includes(type))
    errs.push(fieldError.invalid(path, type, 'must be a standard limit type or fully qualified'));
  return errs;
}

/** validateLimitRangeResourceName for each resource of one list of an item. */
function validateNames(item: Record<string, unknown>, field: string, path: string): FieldError[] {
  const containerItem = item.type === 'Pod' || item.type === 'Container';
  return Object.keys(quantities(item[field])).flatMap((name) =>
    containerItem
      ? validateContainerResourceName(name, `${path}.${field}[${name}]`)
      : validateResourceName(name, `${path}.${field}[${name}]`),
  );
}

export function validateLimitRange(lr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  itemsOf(lr).forEach((item, i) => {
    const path = `spec.limits[${i}]`;
    const type = typeof item.type === 'string' ? item.type : '';
    errs.push(...validateTypeName(type, `${path}.type`));
    if (types.has(type)) errs.push(fieldError.duplicate(`${path}.type`, type));
    types.add(type);
    errs.push(...validateNames(item, 'max', path), ...validateNames(item, 'min', path));
    if (type === 'Pod') {
      for (const field of ['default', 'defaultRequest']) {
        if (Object.keys(quantities(item[field])).length > 0)
          errs.push(fieldError.forbidden(`${path}.${field}`, "may not be specified when `type` is 'Pod'"));
      }
    } else {
      errs.push(...validateNames(item, 'default', path), ...validateNames(item, 'defaultRequest', path));
    }
    if (type === 'PersistentVolumeClaim' && quantities(item.min).storage === undefined && quantities(item.max).storage === undefined) {
      errs.push(fieldError.required(`${path}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    errs.push(...validateNames(item, 'maxLimitRequestRatio', path));
    errs.push(...validateOrder(path, item));
  });
  return errs;
}
