import { StatusError } from '../api/errors.js';

/** The envelope's type, when it could be read before decoding failed. */
export interface EnvelopeKind {
  readonly apiVersion: string;
  readonly kind: string;
}

/**
 * A protobuf request body that could not be decoded: 400 BadRequest. `detail` is the bare decoder error, as Go's
 * serializer reports it; a handler that knows which kind it expected should answer with `forExpectedKind`, which
 * words it as kube-apiserver's request handlers do.
 */
export class ProtobufDecodeError extends StatusError {
  readonly detail: string;
  readonly envelope: EnvelopeKind | undefined;

  constructor(detail: string, envelope?: EnvelopeKind) {
    super(400, 'BadRequest', `the body of the request was in an unknown format: ${detail}`);
    this.name = 'ProtobufDecodeError';
    this.detail = detail;
    this.envelope = envelope;
  }

  forExpectedKind(expectedKind: string, body: Uint8Array): StatusError {
    if (this.envelope !== undefined && this.envelope.kind !== '') {
      const version = this.envelope.apiVersion.slice(this.envelope.apiVersion.lastIndexOf('/') + 1);
      return new StatusError(
        400,
        'BadRequest',
        `${this.envelope.kind} in version "${version}" cannot be handled as a ${expectedKind}: ${this.detail}`,
      );
    }
    return new StatusError(
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type ${expectedKind}): ${this.detail} (${summarize(body)})`,
    );
  }
}

/** The first 30 bytes of a body, in hex unless it looks like JSON (the apiserver's summarizeData). */
export function summarize(body: Uint8Array): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const more = body.length > 30 ? ' ...' : '';
  if (body[0] === 0x7b) return `${new TextDecoder().decode(head)}${more}`;
  return `${Buffer.from(head).toString('hex')}${more}`;
}
