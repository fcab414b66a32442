import type { StatusCause } from '../api/types.js';
import { goJsonText, goQuote } from '../util/go-quote.js';

/** One apimachinery `field.Error`. `badValue` is omitted for Required/Forbidden, as upstream prints none. */
export interface FieldError {
  readonly type: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueForbidden';
  /** Dotted path as field.Path prints it; "<nil>" when the parser had no path. */
  readonly field: string;
  readonly badValue?: unknown;
  /** 'json' when upstream's value is a named type that field.Error renders with encoding/json, not %q. */
  readonly badValueFormat?: 'json';
  readonly detail: string;
}

const TYPE_TEXT: Readonly<Record<FieldError['type'], string>> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
};

/** field.Error.ErrorBody(): the message without the field path. */
export function fieldErrorBody(error: FieldError): string {
  let body = TYPE_TEXT[error.type];
  if (error.type === 'FieldValueInvalid') body += `: ${formatBadValue(error.badValue, error.badValueFormat)}`;
  return error.detail === '' ? body : `${body}: ${error.detail}`;
}

/** field.Error.Error(): "<path>: <body>". */
export function fieldErrorString(error: FieldError): string {
  return `${error.field}: ${fieldErrorBody(error)}`;
}

/**
 * ErrorList.ToAggregate().Error(): duplicates dropped, a single message bare, several joined in brackets.
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(fieldErrorString))];
  if (messages.length === 1) return messages[0] ?? '';
  return `[${messages.join(', ')}]`;
}

/** The StatusCause an Invalid status carries for this error. */
export function toStatusCause(error: FieldError): StatusCause {
  return { reason: error.type, message: fieldErrorBody(error), field: error.field };
}

function formatBadValue(value: unknown, format: 'json' | undefined): string {
  if (typeof value === 'string') return format === 'json' ? goJsonText(value) : goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined || value === null) return 'null';
  return goJsonText(value);
}
