import { createHash } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AuthorityKeyIdentifier,
  BasicConstraints,
  ExtendedKeyUsage,
  Extension,
  GeneralName,
  KeyIdentifier,
  KeyUsage,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
} from '@peculiar/asn1-x509';
import type { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import type { SubjectAltNames } from './hosts.js';

function extension(extnID: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

export function basicConstraints(isCertificateAuthority: boolean): Extension {
  return extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: isCertificateAuthority }));
}

/** `flags` is a bitwise OR of KeyUsageFlags values. */
export function keyUsage(flags: number): Extension {
  return extension(id_ce_keyUsage, true, new KeyUsage(flags));
}

export function extendedKeyUsage(purposes: readonly string[]): Extension {
  return extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([...purposes]));
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 over the subjectPublicKey bits, as Go and OpenSSL compute it. */
export function keyIdentifierOf(spki: SubjectPublicKeyInfo): Buffer {
  return createHash('sha1').update(Buffer.from(spki.subjectPublicKey)).digest();
}

export function subjectKeyIdentifier(keyId: Uint8Array): Extension {
  return extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(keyId));
}

export function authorityKeyIdentifier(keyId: Uint8Array): Extension {
  return extension(id_ce_authorityKeyIdentifier, false, new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(keyId) }));
}

export function subjectAltName(names: SubjectAltNames): Extension {
  const generalNames = [
    ...names.dnsNames.map((dNSName) => new GeneralName({ dNSName })),
    ...names.ipAddresses.map((iPAddress) => new GeneralName({ iPAddress })),
  ];
  return extension(id_ce_subjectAltName, false, new SubjectAlternativeName(generalNames));
}
