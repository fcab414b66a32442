import { StatusError } from '../api/errors.js';
import type { StatusDetails } from '../api/types.js';

/** What a failed request was about, for the "(get foos.example.com name)" suffix client-go adds to non-Status errors. */
export interface RequestTarget {
  readonly group: string;
  readonly resource: string;
  readonly name?: string;
}

export interface FailedResponse {
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | undefined;
  readonly body: Buffer;
}

/** client-go caps the server text it keeps from a non-Status error body. */
const MAX_UNSTRUCTURED_TEXT = 2048;

function isStatusBody(value: unknown): value is { kind: 'Status'; code?: unknown; reason?: unknown; message?: unknown; details?: unknown } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

/** Reason and message client-go's NewGenericServerResponse gives a status code whose body is not a Status. */
function genericReason(code: number, method: string, serverMessage: string): { reason: string; message: string } {
  switch (code) {
    case 409:
      return { reason: method === 'POST' ? 'AlreadyExists' : 'Conflict', message: 'the server reported a conflict' };
    case 404:
      return { reason: 'NotFound', message: 'the server could not find the requested resource' };
    case 400:
      return { reason: 'BadRequest', message: 'the server rejected our request for an unknown reason' };
    case 401:
      return { reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials' };
    case 403:
      return { reason: 'Forbidden', message: serverMessage };
    case 406:
      return {
        reason: 'NotAcceptable',
        message:
          serverMessage === '' || serverMessage === 'unknown'
            ? 'the server was unable to respond with a content type that the client supports'
            : serverMessage,
      };
    case 415:
      return { reason: 'UnsupportedMediaType', message: serverMessage };
    case 405:
      return { reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
    case 422:
      return { reason: 'Invalid', message: 'the server rejected our request due to an error in our request' };
    case 503:
      return { reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' };
    case 504:
      return {
        reason: 'Timeout',
        message: 'the server was unable to return a response in the time allotted, but may still be processing the request',
      };
    case 429:
      return { reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' };
    default:
      if (code >= 500)
        return {
          reason: 'InternalError',
          message: `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`,
        };
      return { reason: 'Unknown', message: `the server responded with the status code ${code} but did not return more information` };
  }
}

function retryAfterSeconds(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/**
 * The StatusError a failed response stands for: the server's own Status when the body is one, otherwise the
 * error client-go builds for an unstructured answer (R8.15), e.g. an unavailable aggregated API's plain-text 503.
 */
export function statusErrorFromResponse(res: FailedResponse, method: string, target: RequestTarget | undefined): StatusError {
  const headers: Record<string, string> = res.retryAfter === undefined ? {} : { 'Retry-After': res.retryAfter };
  const raw = res.body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (isStatusBody(parsed)) {
    const code = typeof parsed.code === 'number' ? parsed.code : res.status;
    const reason = typeof parsed.reason === 'string' ? parsed.reason : '';
    const message = typeof parsed.message === 'string' ? parsed.message : '';
    const details = typeof parsed.details === 'object' && parsed.details !== null ? (parsed.details as StatusDetails) : undefined;
    return new StatusError(code, reason, message, details, headers);
  }
  const isText = res.contentType.toLowerCase().startsWith('text/plain');
  const serverMessage = isText ? raw.slice(0, MAX_UNSTRUCTURED_TEXT).trim() : 'unknown';
  const generic = genericReason(res.status, method, serverMessage);
  let message = generic.message;
  const details: StatusDetails = {};
  if (target !== undefined) {
    const qualified = target.group === '' ? target.resource : `${target.resource}.${target.group}`;
    const name = target.name ?? '';
    message = `${message} (${method.toLowerCase()} ${qualified}${name === '' ? '' : ` ${name}`})`;
    if (name !== '') details.name = name;
    if (target.group !== '') details.group = target.group;
    details.kind = target.resource;
  }
  details.causes = [{ reason: 'UnexpectedServerResponse', message: serverMessage }];
  const retry = retryAfterSeconds(res.retryAfter);
  if (retry !== undefined) details.retryAfterSeconds = retry;
  return new StatusError(res.status, generic.reason, message, details, headers);
}

/** A request that never got an HTTP answer: say which server could not be reached and why. */
export function connectionError(server: string, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`cannot reach the Kubernetes API server at ${server}: ${reason}`, { cause: err });
}
