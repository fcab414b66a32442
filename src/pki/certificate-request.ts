import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Extensions, Name } from '@peculiar/asn1-x509';

/**
 * PKCS#10 certificate signing requests (RFC 2986), read far enough to check their signature and issue a
 * certificate from them: the subject, the public key and the extensions the requester asked for.
 */
export interface CertificateRequest {
  /** The subject Name exactly as encoded in the request. */
  readonly subject: Name;
  readonly subjectDer: Buffer;
  readonly publicKey: KeyObject;
  readonly spkiDer: Buffer;
  /** Extensions from the extensionRequest attribute (subjectAltName, …). */
  readonly extensions: Extensions;
}

/** The first PEM block of a text, as Go's pem.Decode finds it. */
export function firstPemBlock(text: string): { readonly type: string; readonly der: Buffer; readonly hasHeaders: boolean } | undefined {
  const match = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (match === null) return undefined;
  const body = match[2] ?? '';
  const hasHeaders = /^[^\n:]+:/.test(body.split('\n')[0] ?? '');
  const base64 = body.replace(/\s+/g, '');
  if (!hasHeaders && !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  return { type: match[1] ?? '', der: Buffer.from(base64, 'base64'), hasHeaders };
}

interface Tlv {
  readonly tag: number;
  /** The whole element, header included. */
  readonly raw: Buffer;
  readonly content: Buffer;
}

/** One DER element at `offset` (definite lengths only, as DER requires). */
function readTlv(der: Buffer, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined) throw new Error('asn1: syntax error: data truncated');
  let header = 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('asn1: syntax error: indefinite length found (not DER)');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + (der[offset + 2 + i] ?? 0);
    header += bytes;
  }
  const end = offset + header + length;
  if (end > der.length) throw new Error('asn1: syntax error: data truncated');
  return { tag, raw: der.subarray(offset, end), content: der.subarray(offset + header, end) };
}

/** The elements of a constructed value's content. */
function children(content: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = 0; offset < content.length; ) {
    const tlv = readTlv(content, offset);
    out.push(tlv);
    offset += tlv.raw.length;
  }
  return out;
}

function oidOf(tlv: Tlv): string {
  const bytes = tlv.content;
  const first = bytes[0] ?? 0;
  const parts = [Math.floor(first / 40), first % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** Signature algorithms Go's x509 accepts on a request, by OID: the digest node's verify needs (null: built in). */
const SIGNATURE_DIGESTS: Readonly<Record<string, string | null>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};
const EXTENSION_REQUEST = '1.2.840.113549.1.9.14';

/** Parses a DER request and checks its self-signature; throws with what is wrong. */
export function parseCertificateRequest(der: Buffer): CertificateRequest {
  const [info, algorithm, signature] = children(readTlv(der, 0).content);
  if (info === undefined || algorithm === undefined || signature === undefined) {
    throw new Error('asn1: structure error: too few elements in CertificateRequest');
  }
  const [, subject, spki, attributes] = children(info.content);
  if (subject === undefined || spki === undefined) throw new Error('asn1: structure error: too few elements in CertificateRequestInfo');
  const publicKey = createPublicKey({ key: spki.raw, format: 'der', type: 'spki' });
  const [oid] = children(algorithm.content);
  const algorithmOid = oid === undefined ? '' : oidOf(oid);
  const digest = SIGNATURE_DIGESTS[algorithmOid];
  if (digest === undefined) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  // A BIT STRING's first content byte counts the unused bits of the last one; signatures use whole bytes.
  const signatureBytes = signature.content.subarray(1);
  if (!verify(digest, info.raw, publicKey, signatureBytes)) throw new Error('x509: signature verification failure');
  let extensions = new Extensions();
  for (const attribute of attributes === undefined ? [] : children(attributes.content)) {
    const [type, values] = children(attribute.content);
    if (type === undefined || values === undefined || oidOf(type) !== EXTENSION_REQUEST) continue;
    const [value] = children(values.content);
    if (value !== undefined) extensions = AsnConvert.parse(value.raw, Extensions);
  }
  return {
    subject: AsnConvert.parse(subject.raw, Name),
    subjectDer: Buffer.from(subject.raw),
    publicKey,
    spkiDer: Buffer.from(spki.raw),
    extensions,
  };
}
