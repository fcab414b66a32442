import { randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { id_ecdsaWithSHA256 } from '@peculiar/asn1-ecc';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, Extensions, SubjectPublicKeyInfo, TBSCertificate, Validity, Version } from '@peculiar/asn1-x509';
import type { Extension, Name } from '@peculiar/asn1-x509';

export interface CertificateContents {
  readonly subject: Name;
  readonly publicKey: KeyObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly extensions: readonly Extension[];
}

export interface CertificateSigner {
  /** Encoded exactly as the issuer certificate's subject, so chain building matches byte for byte. */
  readonly name: Name;
  readonly privateKey: KeyObject;
}

/** 16 random bytes with the top bit cleared (a positive INTEGER) and a non-zero first byte (minimal DER). */
export function randomSerialNumber(): ArrayBuffer {
  const serial = new Uint8Array(randomBytes(16));
  serial[0] = serial[0]! & 0x7f || 0x01;
  return serial.buffer;
}

export function subjectPublicKeyInfoOf(publicKey: KeyObject): SubjectPublicKeyInfo {
  return AsnConvert.parse(publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo);
}

function assertP256(key: KeyObject): void {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error(`certificates are signed with ECDSA P-256 only; got a ${key.asymmetricKeyType ?? 'unknown'} key`);
  }
}

/** Returns the DER encoding of a v3 certificate signed with ecdsa-with-SHA256. */
export function signCertificate(contents: CertificateContents, signer: CertificateSigner): Buffer {
  assertP256(signer.privateKey);
  const algorithm = new AlgorithmIdentifier({ algorithm: id_ecdsaWithSHA256 });
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: randomSerialNumber(),
    signature: algorithm,
    issuer: signer.name,
    subject: contents.subject,
    validity: new Validity({ notBefore: contents.notBefore, notAfter: contents.notAfter }),
    subjectPublicKeyInfo: subjectPublicKeyInfoOf(contents.publicKey),
    extensions: new Extensions([...contents.extensions]),
  });
  // Node emits ECDSA signatures DER-encoded (Ecdsa-Sig-Value), which is what X.509 carries.
  const signature = sign('sha256', Buffer.from(AsnConvert.serialize(tbsCertificate)), signer.privateKey);
  const certificate = new Certificate({
    tbsCertificate,
    signatureAlgorithm: algorithm,
    signatureValue: new Uint8Array(signature).buffer,
  });
  return Buffer.from(AsnConvert.serialize(certificate));
}
