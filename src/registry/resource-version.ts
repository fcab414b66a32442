import { StatusError } from '../api/errors.js';
import { GoNumberError, parseUint64 } from '../api/go-strconv.js';
import { goQuote } from '../util/go-quote.js';

/**
 * A resourceVersion a client asks to read at, parsed as the storage versioner parses it: "" and "0" mean any
 * version; anything else must be a uint64 in decimal (so " 1", "0x10", "1e3" and "-1" are all rejected).
 *
 * kube-apiserver answers a malformed one in two ways: the etcd store (lists with a limit, a continue token or
 * resourceVersionMatch=Exact) says 400 `invalid resource version: <field error>`; the watch cache (gets, other
 * lists, watches) returns the bare field error, which reaches the client as a 500. Both are bad input, so both are
 * answered 400 here, each with its own message (`viaStorage` picks the etcd store's).
 */
export function parseResourceVersion(rv: string | undefined, viaStorage = false): bigint {
  if (rv === undefined || rv === '' || rv === '0') return 0n;
  try {
    return parseUint64(rv);
  } catch (err) {
    if (!(err instanceof GoNumberError)) throw err;
    const fieldMessage = `resourceVersion: Invalid value: ${goQuote(rv)}: ${err.message}`;
    throw new StatusError(400, 'BadRequest', viaStorage ? `invalid resource version: ${fieldMessage}` : fieldMessage);
  }
}

/**
 * The watch cache's answer to a read at a resourceVersion newer than any it holds: 504 with the cause client-go
 * recognises (IsTooLargeResourceVersion) and a one-second retry. kube-apiserver first waits up to 3 s for its cache
 * to catch up with etcd; storage here is read directly and never lags, so there is nothing to wait for.
 */
export function tooLargeResourceVersion(requested: bigint, current: number): StatusError {
  return new StatusError(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}
