import { type FieldError, fieldError, fieldErrorBody } from '../../api/errors.js';

/**
 * Field-error constructors the shared `fieldError` set lacks, with apimachinery's wording (field.TypeInvalid,
 * field.TooMany, field.TooLong with an explicit unit).
 */
export const schemaFieldError = {
  ...fieldError,
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    value,
    detail,
    hasValue: true,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    value: actual,
    detail: max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items',
    hasValue: true,
  }),
  tooLong: (field: string, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long',
    hasValue: false,
  }),
};

/** `field: body`, the string Go sorts and prints field errors by. */
export function renderFieldError(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** ValidateStructural sorts its errors by their rendered text so the order is stable. */
export function sortByRendering(errors: FieldError[]): FieldError[] {
  return errors
    .map((e) => ({ e, text: renderFieldError(e) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ e }) => e);
}
