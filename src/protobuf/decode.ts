import type { Definitions } from '../openapi/schema.js';
import { readEnvelope, type UnknownEnvelope, writeEnvelope } from './envelope.js';
import { type EnvelopeKind, ProtobufDecodeError } from './errors.js';
import { definitionForKind } from './kinds.js';
import { decodeMessage } from './message-decoder.js';
import { encodeMessage } from './message-encoder.js';
import { WireFormatError } from './wire.js';

export { ProtobufDecodeError } from './errors.js';
export { KUBERNETES_PROTOBUF_MAGIC } from './envelope.js';

/** The media type of Kubernetes protobuf bodies. */
export const KUBERNETES_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** kube-apiserver's scheme, as its "not registered" errors name it. */
const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

/**
 * Decodes an `application/vnd.kubernetes.protobuf` body (magic "k8s\0" + runtime.Unknown envelope) of a built-in
 * kind into the JSON object Go would have sent for it, `apiVersion` and `kind` included. `defaults` fills an
 * envelope's empty apiVersion or kind, as kube-apiserver fills them from the request path.
 * Throws ProtobufDecodeError (400 BadRequest) for a malformed body or a kind the definitions do not know.
 */
export function decodeKubernetesProtobuf(body: Uint8Array, definitions: Definitions, defaults?: EnvelopeKind): Record<string, unknown> {
  let envelope: UnknownEnvelope;
  try {
    envelope = readEnvelope(body);
  } catch (err) {
    throw asDecodeError(err, undefined);
  }
  const apiVersion = envelope.apiVersion === '' ? (defaults?.apiVersion ?? '') : envelope.apiVersion;
  const kind = envelope.kind === '' ? (defaults?.kind ?? '') : envelope.kind;
  const typeMeta = `runtime.TypeMeta{APIVersion:${JSON.stringify(envelope.apiVersion)}, Kind:${JSON.stringify(envelope.kind)}}`;
  if (kind === '') throw new ProtobufDecodeError(`Object 'Kind' is missing in '${typeMeta}'`);
  if (apiVersion === '') throw new ProtobufDecodeError(`Object 'apiVersion' is missing in '${typeMeta}'`, { apiVersion, kind });
  const definition = definitionForKind(definitions, apiVersion, kind);
  if (definition === undefined) {
    throw new ProtobufDecodeError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(SCHEME_NAME)}`,
      {
        apiVersion,
        kind,
      },
    );
  }
  try {
    return { apiVersion, kind, ...decodeMessage(definitions, envelope.raw, definition) };
  } catch (err) {
    throw asDecodeError(err, { apiVersion, kind });
  }
}

/** Encodes a built-in object (with apiVersion and kind) as Kubernetes protobuf: the inverse of decodeKubernetesProtobuf. */
export function encodeKubernetesProtobuf(obj: Record<string, unknown>, definitions: Definitions): Uint8Array {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw new Error('the object needs a string apiVersion and kind');
  const definition = definitionForKind(definitions, apiVersion, kind);
  if (definition === undefined) throw new Error(`no definition for kind ${kind} in ${apiVersion}`);
  return writeEnvelope(apiVersion, kind, encodeMessage(definitions, obj, definition));
}

function asDecodeError(err: unknown, envelope: EnvelopeKind | undefined): unknown {
  if (err instanceof WireFormatError) return new ProtobufDecodeError(err.message, envelope);
  // Only a hostile body nests messages deep enough to exhaust the stack.
  if (err instanceof RangeError) return new ProtobufDecodeError('proto: message nested too deeply', envelope);
  return err;
}
