import { ProtoReader, ProtoWriter, WIRE_LEN, WireFormatError } from './wire.js';

/** Every Kubernetes protobuf body starts with "k8s\0". */
export const KUBERNETES_PROTOBUF_MAGIC: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** runtime.Unknown: the envelope around the raw message, naming its type. */
export interface UnknownEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

const UNKNOWN_TYPE_META = 1;
const UNKNOWN_RAW = 2;
const UNKNOWN_CONTENT_ENCODING = 3;
const UNKNOWN_CONTENT_TYPE = 4;
const TYPE_META_API_VERSION = 1;
const TYPE_META_KIND = 2;

export function readEnvelope(body: Uint8Array): UnknownEnvelope {
  if (body.length === 0) throw new WireFormatError('empty data');
  if (!hasMagic(body)) {
    throw new WireFormatError(
      `provided data does not appear to be a protobuf message, expected prefix [${KUBERNETES_PROTOBUF_MAGIC.join(' ')}]`,
    );
  }
  const envelope: UnknownEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  const reader = new ProtoReader(body.subarray(KUBERNETES_PROTOBUF_MAGIC.length));
  while (!reader.done()) {
    const { field, wireType } = reader.readKey('Unknown');
    if (field >= UNKNOWN_TYPE_META && field <= UNKNOWN_CONTENT_TYPE && wireType !== WIRE_LEN) {
      throw new WireFormatError(`proto: wrong wireType = ${wireType} for field ${UNKNOWN_FIELD_NAMES[field - 1]}`);
    }
    if (field === UNKNOWN_TYPE_META) readTypeMeta(reader.readBytes(), envelope);
    else if (field === UNKNOWN_RAW) envelope.raw = reader.readBytes();
    else if (field === UNKNOWN_CONTENT_ENCODING) envelope.contentEncoding = reader.readString();
    else if (field === UNKNOWN_CONTENT_TYPE) envelope.contentType = reader.readString();
    else reader.skip(wireType);
  }
  return envelope;
}

const UNKNOWN_FIELD_NAMES = ['TypeMeta', 'Raw', 'ContentEncoding', 'ContentType'];

function readTypeMeta(bytes: Uint8Array, envelope: UnknownEnvelope): void {
  const reader = new ProtoReader(bytes);
  while (!reader.done()) {
    const { field, wireType } = reader.readKey('TypeMeta');
    if ((field === TYPE_META_API_VERSION || field === TYPE_META_KIND) && wireType !== WIRE_LEN) {
      throw new WireFormatError(`proto: wrong wireType = ${wireType} for field ${field === TYPE_META_KIND ? 'Kind' : 'APIVersion'}`);
    }
    if (field === TYPE_META_API_VERSION) envelope.apiVersion = reader.readString();
    else if (field === TYPE_META_KIND) envelope.kind = reader.readString();
    else reader.skip(wireType);
  }
}

function hasMagic(body: Uint8Array): boolean {
  if (body.length < KUBERNETES_PROTOBUF_MAGIC.length) return false;
  return KUBERNETES_PROTOBUF_MAGIC.every((byte, i) => body[i] === byte);
}

/** Writes every envelope field, as Go does (its strings are not pointers, so even empty ones are written). */
export function writeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const typeMeta = new ProtoWriter();
  typeMeta.writeString(TYPE_META_API_VERSION, apiVersion);
  typeMeta.writeString(TYPE_META_KIND, kind);
  const unknown = new ProtoWriter();
  unknown.writeBytes(UNKNOWN_TYPE_META, typeMeta.finish());
  unknown.writeBytes(UNKNOWN_RAW, raw);
  unknown.writeString(UNKNOWN_CONTENT_ENCODING, '');
  unknown.writeString(UNKNOWN_CONTENT_TYPE, '');
  const message = unknown.finish();
  const out = new Uint8Array(KUBERNETES_PROTOBUF_MAGIC.length + message.length);
  out.set(KUBERNETES_PROTOBUF_MAGIC, 0);
  out.set(message, KUBERNETES_PROTOBUF_MAGIC.length);
  return out;
}
