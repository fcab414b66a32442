import type { ServerResponse } from 'node:http';
import { badRequest } from '../../api/errors.js';
import { parseGoDuration } from './go-duration.js';

/** kube-apiserver's --request-timeout default (1m0s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The deadline of a request that is not long-running (WithRequestDeadline): the server's limit, shortened by a
 * positive `?timeout=` (a longer or zero one keeps the server's). A malformed one is a 400.
 */
export function requestTimeoutMs(searchParams: URLSearchParams, serverTimeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS): number {
  const value = searchParams.get('timeout');
  if (value === null || value === '') return serverTimeoutMs;
  let requested: number;
  try {
    requested = parseGoDuration(value);
  } catch (err) {
    throw badRequest(`invalid timeout specified in the request URL - ${err instanceof Error ? err.message : String(err)}`);
  }
  return requested > 0 && requested < serverTimeoutMs ? requested : serverTimeoutMs;
}

/**
 * The timeout filter's answer: Go encodes the bare metav1.Status (no kind or apiVersion) with a trailing newline and
 * sets no Content-Type, so clients see text/plain and report it as a generic 504.
 */
const TIMEOUT_BODY = `${JSON.stringify({
  metadata: {},
  status: 'Failure',
  message: 'Timeout: request did not complete within the allotted timeout',
  reason: 'Timeout',
  details: {},
  code: 504,
})}\n`;

/**
 * Arms the request timer (WithTimeoutForNonLongRunningRequests). When it fires before the response is done: a 504
 * if nothing was written yet, otherwise the connection is cut (a half-sent response cannot be turned into an
 * error); `onTimeout` then lets the caller abandon the work. Returns the disarm function; the timer also disarms
 * itself when the response finishes or its connection closes.
 */
export function withRequestTimeout(res: ServerResponse, ms: number, onTimeout?: () => void): () => void {
  const timer = setTimeout(() => {
    disarm();
    if (res.headersSent) {
      res.destroy();
    } else {
      res.writeHead(504, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(TIMEOUT_BODY) });
      res.end(TIMEOUT_BODY);
      // The handler is still running; whatever it writes now is dropped, as Go's timeout writer drops it.
      res.on('error', () => {});
    }
    onTimeout?.();
  }, ms);
  const disarm = (): void => {
    clearTimeout(timer);
    res.off('finish', disarm);
    res.off('close', disarm);
  };
  res.once('finish', disarm);
  res.once('close', disarm);
  return disarm;
}
