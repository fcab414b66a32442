import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { StatusError } from '../api/errors.js';
import { auditRecorder } from '../audit/context.js';
import type { ResponseFormat } from './negotiation.js';

/**
 * Responses answered in one event-loop turn are written together at its end (the check phase), not one by one as
 * each handler finishes. Written one by one, each response wakes its client while the server still works on the
 * next request, the client's next request arrives alone, and every loop turn, socket read and wake-up serves one
 * request; written together, the clients' next requests arrive together too and those costs are shared. With 32
 * clients this took the server's CPU per create from ~115 µs to ~60 µs (`npm run bench`). The headers are set at
 * once, so the response counts as committed (`headersSent`) for the request-timeout filter and error handlers;
 * only the body's write waits, at most until the end of the turn.
 */
let ending: Array<readonly [ServerResponse, string]> = [];
const bodyPending = new WeakSet<ServerResponse>();

function endAtTurnEnd(res: ServerResponse, text: string): void {
  if (ending.length === 0) setImmediate(endAll);
  ending.push([res, text]);
  bodyPending.add(res);
}

function endAll(): void {
  const batch = ending;
  ending = [];
  for (const [res, text] of batch) {
    bodyPending.delete(res);
    // A response cut meanwhile (its connection closed, or the request timed out) takes no body.
    if (!res.writableEnded && !res.destroyed) res.end(text);
  }
}

/** Ends a response whose headers are out (a watch that failed midway, say), unless its body is already due. */
export function endCommittedResponse(res: ServerResponse): void {
  if (!bodyPending.has(res)) res.end();
}

const GO_ESCAPED = /[<>&\u2028\u2029]/;
const GO_ESCAPED_ALL = /[<>&\u2028\u2029]/g;

function goEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * JSON as Go's json.Encoder writes it for kube-apiserver: "<", ">", "&", U+2028 and U+2029 escaped as \u00XX
 * (they can only occur inside strings, so the text stays equivalent) and a newline at the end. Clients that
 * compare bodies or error strings byte for byte (the Python client's create_from_yaml) see the same text.
 */
export function goJson(body: unknown): string {
  const text = JSON.stringify(body);
  return `${GO_ESCAPED.test(text) ? text.replace(GO_ESCAPED_ALL, goEscape) : text}\n`;
}

/** json.MarshalIndent with two spaces, Go's HTML-safe escapes and no trailing newline: the pretty serializer. */
export function goJsonIndent(body: unknown): string {
  const text = JSON.stringify(body, null, 2);
  return GO_ESCAPED.test(text) ? text.replace(GO_ESCAPED_ALL, goEscape) : text;
}

/** Responses to requests that asked for pretty JSON (see isPrettyPrint). */
const prettyResponses = new WeakSet<ServerResponse>();

/**
 * kube-apiserver's negotiation picks the pretty serializer for ?pretty=<true> (strconv.ParseBool: a value it
 * cannot parse is false) and, without a pretty value, for the User-Agents of browsers, curl and Wget.
 */
export function isPrettyPrint(rawUrl: string, searchParams: URLSearchParams, userAgent: string | undefined): boolean {
  // The common request mentions no pretty and comes from a client library: two cheap checks.
  if (rawUrl.includes('pretty')) {
    const value = searchParams.get('pretty');
    if (value !== null && value !== '') return PARSE_BOOL_TRUE.has(value);
  }
  if (userAgent === undefined) return false;
  return userAgent.startsWith('curl') || userAgent.startsWith('Wget') || userAgent.startsWith('Mozilla/5.0');
}

const PARSE_BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Encodes `res`'s API objects, lists and Statuses with the pretty serializer (watch events stay compact). */
export function markPretty(res: ServerResponse): void {
  prettyResponses.add(res);
}

/** The body of a negotiated JSON response: pretty when the request asked for it, goJson otherwise. */
export function negotiatedJson(res: ServerResponse, body: unknown): string {
  return prettyResponses.has(res) ? goJsonIndent(body) : goJson(body);
}

/** An API object, list or Status as JSON, the way kube-apiserver's serializer writes it (see goJson). */
export function sendJson(res: ServerResponse, code: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  auditRecorder()?.responseObject(body);
  const text = negotiatedJson(res, body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  endAtTurnEnd(res, text);
}

/** Go's json.MarshalIndent with two spaces and no trailing newline: /version and / (WriteRawJSON). */
export function sendRawJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  endAtTurnEnd(res, text);
}

export function send(res: ServerResponse, format: ResponseFormat, code: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (format.encoding === 'json') {
    sendJson(res, code, body, headers);
    return;
  }
  auditRecorder()?.responseObject(body);
  const text = stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/yaml', 'Content-Length': Buffer.byteLength(text), ...headers });
  endAtTurnEnd(res, text);
}

export function sendStatusError(res: ServerResponse, err: StatusError): void {
  auditRecorder()?.responseStatus(err.toStatus() as unknown as Record<string, unknown>);
  sendJson(res, err.code, err.toStatus(), { ...err.headers });
}

export function sendText(res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  endAtTurnEnd(res, text);
}

/** Go's http.NotFound, which kube-apiserver's last delegate answers for paths no API group claims. */
export function sendPageNotFound(res: ServerResponse): void {
  sendText(res, 404, '404 page not found\n');
}

/** Adds `Warning: 299 - "<text>"` headers, the way the apiserver reports warnings to kubectl. */
export function warningHeaders(warnings: readonly string[]): OutgoingHttpHeaders {
  if (warnings.length === 0) return {};
  return { Warning: warningValues(warnings) };
}

function warningValues(warnings: readonly string[]): string[] {
  return warnings.map((w) => `299 - ${JSON.stringify(w)}`);
}

/**
 * R11.80: warnings gathered before a write was refused (a webhook's, its own denial's) still reach the client,
 * with the refusal, as Kubernetes' warning recorder adds them to whatever response the request gets.
 */
export async function keepingWarnings<T>(warnings: readonly string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof StatusError) || warnings.length === 0) throw err;
    throw new StatusError(err.code, err.reason, err.message, err.details, { ...err.headers, Warning: warningValues(warnings) });
  }
}
