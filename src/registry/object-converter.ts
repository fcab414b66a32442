import { internalError, StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';

/**
 * Converts a custom resource's objects between its versions through something outside the process (a CRD
 * conversion webhook, R11.88). The store converts at its storage boundary, as kube-apiserver's storage codec does:
 * what admission, the strategy and validation see stays in the request's version; bytes are written in the
 * storage version, and whatever version an object was stored at is converted to the request's when read.
 */
export interface ObjectConverter {
  /** The apiVersion objects are written with. */
  readonly storageApiVersion: string;
  /**
   * `objects` as apiVersion `to`, in order. Objects already there are not sent, and nothing is called when none
   * needs converting. `listKind` is set when the objects are a list's items (errors name the list's kind then).
   * Fails with a ConversionFailure.
   */
  convert(objects: readonly KubeObject[], to: string, listKind?: string): Promise<KubeObject[]>;
}

/** A conversion that did not happen; the message is Kubernetes' (`conversion webhook for <gvk> failed: …`). */
export class ConversionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionFailure';
  }
}

/**
 * R11.96, R11.97 (quirk Q9): a failed conversion is a 500 InternalError on writes, but a bare 500 without reason on
 * reads, where kube-apiserver's handlers meet it as a plain error from the encoder.
 */
export function conversionStatus(err: unknown, path: 'read' | 'write'): unknown {
  if (!(err instanceof ConversionFailure)) return err;
  return path === 'write' ? internalError(err) : new StatusError(500, '', err.message);
}
