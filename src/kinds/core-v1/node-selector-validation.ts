import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, objects } from '../../api/types.js';
import { isDns1123Subdomain } from '../../validation/names.js';
import { nodeSelectorRequirement } from './types/pod-validation/scheduling.js';

/**
 * ValidateNodeSelector of pkg/apis/core/validation, as a PersistentVolume's nodeAffinity.required uses it: at
 * least one term, each requirement's operator, value count and key; node field requirements name metadata.name.
 */

const strings = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with exactly one value. */
function validateFieldRequirement(req: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(req.values);
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length !== 1) {
      errs.push(fieldError.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    }
  } else {
    errs.push(fieldError.invalid(`${path}.operator`, req.operator ?? '', 'not a valid selector operator'));
  }
  if (req.key !== 'metadata.name') {
    errs.push(fieldError.invalid(`${path}.key`, req.key ?? '', 'not a valid field selector key'));
    return errs;
  }
  values.forEach((value, i) => {
    const v = typeof value === 'string' ? value : '';
    for (const msg of isDns1123Subdomain(v)) errs.push(fieldError.invalid(`${path}.values[${i}]`, v, msg));
  });
  return errs;
}

export function validateNodeSelector(selector: unknown, path: string): FieldError[] {
  const termsPath = `${path}.nodeSelectorTerms`;
  const terms = isObject(selector) && Array.isArray(selector.nodeSelectorTerms) ? selector.nodeSelectorTerms : [];
  if (terms.length === 0) return [fieldError.required(termsPath, 'must have at least one node selector term')];
  const errs: FieldError[] = [];
  terms.forEach((term, i) => {
    const at = `${termsPath}[${i}]`;
    const t = isObject(term) ? term : {};
    objects(t.matchExpressions).forEach((req, j) => {
      errs.push(...nodeSelectorRequirement(req, false, `${at}.matchExpressions[${j}]`));
    });
    objects(t.matchFields).forEach((req, j) => {
      errs.push(...validateFieldRequirement(req, `${at}.matchFields[${j}]`));
    });
  });
  return errs;
}
