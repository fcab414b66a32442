import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import type { StatusError } from '../api/errors.js';
import type { ResponseFormat } from './negotiation.js';

export function sendJson(res: ServerResponse, code: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function send(res: ServerResponse, format: ResponseFormat, code: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (format.encoding === 'json') {
    sendJson(res, code, body, headers);
    return;
  }
  const text = stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/yaml', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendStatusError(res: ServerResponse, err: StatusError): void {
  sendJson(res, err.code, err.toStatus(), { ...err.headers });
}

export function sendText(res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Adds `Warning: 299 - "<text>"` headers, the way the apiserver reports warnings to kubectl. */
export function warningHeaders(warnings: readonly string[]): OutgoingHttpHeaders {
  if (warnings.length === 0) return {};
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
}
