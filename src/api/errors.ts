import { goQuote } from '../util/go-quote.js';
import type { Status, StatusCause, StatusDetails } from './types.js';

/**
 * An error that renders itself as a metav1.Status (rules R9.1–R9.14). Every layer above storage throws these;
 * the HTTP layer only serialises them.
 */
export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: StatusDetails | undefined;
  /** Extra response headers (Retry-After; Warning, which may repeat). */
  readonly headers: Readonly<Record<string, string | string[]>>;

  constructor(code: number, reason: string, message: string, details?: StatusDetails, headers: Record<string, string | string[]> = {}) {
    super(message);
    this.name = 'StatusError';
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  toStatus(): Status {
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message };
    // metav1.Status omits an empty (unknown) reason.
    if (this.reason !== '') status.reason = this.reason;
    if (this.details !== undefined) status.details = this.details;
    status.code = this.code;
    return status;
  }
}

export const OPTIMISTIC_LOCK_ERROR_MSG = 'the object has been modified; please apply your changes to the latest version and try again';

/** The resource part of Status details: plural resource with group (R9.2). */
export interface ResourceRef {
  readonly group: string;
  readonly resource: string;
}

function qualified(ref: ResourceRef): string {
  return ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`;
}

function details(ref: ResourceRef, name: string | undefined): StatusDetails {
  const d: StatusDetails = {};
  if (name !== undefined && name !== '') d.name = name;
  if (ref.group !== '') d.group = ref.group;
  d.kind = ref.resource;
  return d;
}

export function notFound(ref: ResourceRef, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualified(ref)} "${name}" not found`, details(ref, name));
}

export function alreadyExists(ref: ResourceRef, name: string, prefix = ''): StatusError {
  return new StatusError(409, 'AlreadyExists', `${prefix}${qualified(ref)} "${name}" already exists`, details(ref, name));
}

export function conflict(ref: ResourceRef, name: string, detail: string): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(ref)} "${name}": ${detail}`, details(ref, name));
}

export function forbidden(ref: ResourceRef, name: string, why: string): StatusError {
  const what = name === '' ? qualified(ref) : `${qualified(ref)} "${name}"`;
  return new StatusError(403, 'Forbidden', `${what} is forbidden: ${why}`, details(ref, name));
}

export function methodNotAllowed(ref: ResourceRef, verb: string): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    `${verb} is not supported on resources of kind "${qualified(ref)}"`,
    details(ref, undefined),
  );
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function notAcceptable(message: string): StatusError {
  return new StatusError(406, 'NotAcceptable', message);
}

/** A create, update or delete body in a media type no decoder takes (patch types included). */
export function unsupportedMediaType(): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  );
}

export function requestEntityTooLarge(limitBytes: number): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limitBytes}`);
}

export function expired(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function timeout(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(504, 'Timeout', message, { retryAfterSeconds });
}

export function internalError(err: unknown): StatusError {
  const message = err instanceof Error ? err.message : String(err);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** 405 for a verb the resource's routes do not offer (go-restful's answer, not the handler's). */
export function methodNotAllowedRoute(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function notFoundPath(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function toStatusError(err: unknown): StatusError {
  return err instanceof StatusError ? err : internalError(err);
}

// ---- field errors (apimachinery's field.Error) ----

export type FieldErrorType =
  | 'FieldValueInvalid'
  | 'FieldValueRequired'
  | 'FieldValueForbidden'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly detail: string;
  /** The offending value; omitted where Kubernetes prints none (Required, Forbidden). */
  readonly value?: unknown;
  readonly hasValue: boolean;
}

const TYPE_LABEL: Record<FieldErrorType, string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotFound: 'Not found',
};

/** A value Kubernetes prints with Go's %#v of a non-string type (e.g. uint64 zero prints as `0x0`). */
export class GoLiteral {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Go's %v / %q rendering of a field value, as field.Error prints it. */
function renderValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `[]string{${value.map((v) => goQuote(v)).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** "<Type>: <value>: <detail>" — the error without its field path (a Status cause's message). */
export function fieldErrorBody(e: FieldError): string {
  let body = TYPE_LABEL[e.type];
  if (e.hasValue) body += `: ${renderValue(e.value)}`;
  if (e.detail !== '') body += `: ${e.detail}`;
  return body;
}

export const fieldError = {
  invalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    value,
    detail,
    hasValue: true,
  }),
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail, hasValue: false }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail, hasValue: false }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    value,
    detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
    hasValue: true,
  }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value, detail: '', hasValue: true }),
  tooLong: (field: string, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: `may not be more than ${maxLength} bytes`,
    hasValue: false,
  }),
};

/** Status(422, Invalid) — `<Kind> "<name>" is invalid: <errors>` (R9.6). `qualifiedKind` is "Deployment.apps". */
export function invalid(qualifiedKind: string, group: string, kind: string, name: string, errors: readonly FieldError[]): StatusError {
  // ErrorList.ToAggregate drops repeated messages (causes keep every error).
  const rendered = [...new Set(errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`))];
  const summary = rendered.length === 1 ? rendered[0] : `[${rendered.join(', ')}]`;
  const causes: StatusCause[] = errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  const d: StatusDetails = {};
  if (name !== '') d.name = name;
  if (group !== '') d.group = group;
  d.kind = kind;
  d.causes = causes;
  return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${summary}`, d);
}
