import { StatusError, toStatusError } from '../api/errors.js';
import { StorageUnavailableError } from '../storage/errors.js';

/**
 * The Status a failed request answers with. A store that failed (etcd unreachable, past the deadline, or a write
 * whose outcome is unknown) is answered as kube-apiserver answers an error that is not a Status: 500, the error's
 * own message, no reason (kubectl prints "Error from server: <message>"). Anything else that is not a Status is
 * an internal error.
 */
export function responseStatus(err: unknown): StatusError {
  if (err instanceof StorageUnavailableError) return new StatusError(500, '', err.message);
  return toStatusError(err);
}
