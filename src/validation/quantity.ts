import { type FieldError, fieldError } from '../api/errors.js';
import { quantityValue } from './quantity-value.js';

/**
 * Quantity range checks of pkg/apis/core/validation with Kubernetes' messages. Decoding already refused text that is
 * not a quantity; the value shown is the one the client sent (Kubernetes shows the canonical form, which is the same
 * for the quantities people write: "-1Gi", "100m").
 */

const shown = (value: unknown): string => (typeof value === 'number' ? String(value) : String(value ?? ''));

/** ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(value: unknown, field: string): FieldError[] {
  return quantityValue(value) < 0 ? [fieldError.invalid(field, shown(value), 'must be greater than or equal to 0')] : [];
}

/** ValidatePositiveQuantityValue. */
export function validatePositiveQuantity(value: unknown, field: string): FieldError[] {
  return quantityValue(value) <= 0 ? [fieldError.invalid(field, shown(value), 'must be greater than zero')] : [];
}

/** Whether a quantity is a whole number (hugepages and extended resources must be; "must be an integer"). */
export function isWholeQuantity(value: unknown): boolean {
  return Number.isInteger(quantityValue(value));
}

export { quantityValue };
