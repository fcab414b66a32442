import { StatusError } from '../api/errors.js';

/**
 * A request body that cannot be decoded into the built-in type: 400 BadRequest with Kubernetes' message
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: <detail>`. `detail` is the decoder's own text, which
 * the PATCH path wraps differently (422, see invalidPatchedObject); `unknownFieldsOnly` tells strict-decoding
 * failures apart from type errors.
 */
export class DecodeError extends StatusError {
  readonly detail: string;
  readonly unknownFieldsOnly: boolean;

  constructor(message: string, detail: string, unknownFieldsOnly: boolean) {
    super(400, 'BadRequest', message);
    this.name = 'DecodeError';
    this.detail = detail;
    this.unknownFieldsOnly = unknownFieldsOnly;
  }
}
