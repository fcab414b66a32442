import { type FieldError, fieldErrorBody } from '../../api/errors.js';

/** Field errors as Kubernetes prints them in a 422 message: `field: Type: value: detail`. */
export function rendered(errors: readonly FieldError[]): string[] {
  return errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
}
