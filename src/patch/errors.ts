import { fieldError, invalid, StatusError } from '../api/errors.js';

/**
 * A patch that could not be applied, carrying the status the API server answers with. Extends StatusError so the
 * HTTP layer renders it like any other API error.
 */
export class PatchError extends StatusError {
  /** What the patch engine reported, kept for logs when the response message is deliberately generic. */
  readonly detail: string;

  constructor(code: number, reason: string, message: string, detail: string = message) {
    super(code, reason, message);
    this.name = 'PatchError';
    this.detail = detail;
  }
}

/** 400 BadRequest: the patch document itself is malformed. */
export function malformedPatch(message: string): PatchError {
  return new PatchError(400, 'BadRequest', message);
}

/**
 * 422 as produced by errors.NewGenericServerResponse: Kubernetes drops the engine's message and answers with a
 * fixed one (used for JSON patch operations that fail and for some strategic-merge-patch errors).
 */
export function unprocessablePatch(detail: string): PatchError {
  return new PatchError(422, 'Invalid', 'the server rejected our request due to an error in our request', detail);
}

/** 413: more JSON patch operations than the server accepts. */
export function tooManyPatchOperations(limit: number, got: number): PatchError {
  return new PatchError(413, 'RequestEntityTooLarge', `The allowed maximum operations in a JSON patch is ${limit}, got ${got}`);
}

/**
 * A plain Go error escaping the strategic merge patch engine (`unknown patch type: bogus in map: ...`): the API
 * server turns it into a 500 whose reason is empty; the fault is the patch's, so Cascade answers 400 BadRequest
 * with the same text.
 */
export function patchEngineFailure(message: string): PatchError {
  return new PatchError(400, 'BadRequest', message);
}

/**
 * The patched object could not be decoded (type mismatch, or unknown fields under fieldValidation=Strict):
 * 422 Invalid with a single `patch` cause. `patchedValue` is what Kubernetes prints as the bad value — the patched
 * JSON for json/merge patches, the Go rendering of the patch map for strategic merge patches.
 */
export function invalidPatchedObject(patchedValue: string, detail: string): StatusError {
  return invalid('', '', '', '', [fieldError.invalid('patch', patchedValue, detail)]);
}
