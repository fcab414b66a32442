import { type FieldError, fieldError } from '../api/errors.js';
import { isObject } from '../api/types.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** ValidateAnnotationsSize: keys and values together, in bytes as Go's len counts them, within 256 KiB. */
export function annotationsWithinLimit(annotations: Record<string, unknown>): boolean {
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  return size <= TOTAL_ANNOTATION_SIZE_LIMIT;
}

/** ValidateLabels: every key a qualified name, every value a label value (Service selectors, templates, nodeSelector). */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (labels === undefined || labels === null) return errs;
  if (!isObject(labels)) {
    errs.push(fieldError.invalid(field, labels, 'must be a map of string keys to string values'));
    return errs;
  }
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of isQualifiedName(k)) errs.push(fieldError.invalid(field, k, msg));
    if (typeof v !== 'string') errs.push(fieldError.invalid(field, v, 'must be a string'));
    else for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(field, v, msg));
  }
  return errs;
}

/** ValidateAnnotations: qualified (lower-cased) keys and at most 256 KiB of keys and values together. */
export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations === undefined || annotations === null) return errs;
  if (!isObject(annotations)) {
    errs.push(fieldError.invalid(field, annotations, 'must be a map of string keys to string values'));
    return errs;
  }
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(field, k, msg));
    if (typeof v !== 'string') errs.push(fieldError.invalid(field, v, 'must be a string'));
    size += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    errs.push({ type: 'FieldValueTooLong', field, detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`, hasValue: false });
  }
  return errs;
}
