import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  Certificate,
  KeyUsageFlags,
  SubjectKeyIdentifier,
  id_ce_subjectKeyIdentifier,
  id_kp_clientAuth,
  id_kp_serverAuth,
} from '@peculiar/asn1-x509';
import type { Extension } from '@peculiar/asn1-x509';
import { signCertificate, subjectPublicKeyInfoOf } from './certificate-builder.js';
import type { CertificateSigner } from './certificate-builder.js';
import { encodeDistinguishedName } from './distinguished-name.js';
import type { DistinguishedName } from './distinguished-name.js';
import {
  authorityKeyIdentifier,
  basicConstraints,
  extendedKeyUsage,
  keyIdentifierOf,
  keyUsage,
  subjectAltName,
  subjectKeyIdentifier,
} from './extensions.js';
import { subjectAltNamesFor } from './hosts.js';
import { pemDecode, pemEncode } from './pem.js';

/** A certificate and its private key, both PEM (the key as PKCS#8 "PRIVATE KEY"). */
export interface CertificateAndKey {
  readonly cert: string;
  readonly key: string;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Tolerates clients whose clocks run a little behind the server's. */
const CLOCK_SKEW_MS = 5 * MINUTE_MS;
const CA_LIFETIME_MS = 3650 * DAY_MS;
const LEAF_LIFETIME_MS = 365 * DAY_MS;

function newKeyPair(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

function privateKeyPem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export function createCertificateAuthority(commonName: string): CertificateAndKey {
  const { publicKey, privateKey } = newKeyPair();
  const now = Date.now();
  const name = encodeDistinguishedName({ commonName });
  const der = signCertificate(
    {
      subject: name,
      publicKey,
      notBefore: new Date(now - CLOCK_SKEW_MS),
      notAfter: new Date(now + CA_LIFETIME_MS),
      extensions: [
        basicConstraints(true),
        keyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature),
        subjectKeyIdentifier(keyIdentifierOf(subjectPublicKeyInfoOf(publicKey))),
      ],
    },
    { name, privateKey },
  );
  return { cert: pemEncode('CERTIFICATE', der), key: privateKeyPem(privateKey) };
}

export interface ParsedAuthority {
  readonly signer: CertificateSigner;
  readonly keyId: Uint8Array;
  readonly notAfter: Date;
}

export function parseAuthority(ca: CertificateAndKey): ParsedAuthority {
  const certificate = AsnConvert.parse(pemDecode(ca.cert, 'CERTIFICATE'), Certificate);
  const tbs = certificate.tbsCertificate;
  const skiExtension = tbs.extensions?.find((ext) => ext.extnID === id_ce_subjectKeyIdentifier);
  // A CA made elsewhere may carry a key identifier computed another way; leaves must echo the CA's own.
  const keyId = skiExtension
    ? new Uint8Array(AsnConvert.parse(skiExtension.extnValue.buffer, SubjectKeyIdentifier).buffer)
    : keyIdentifierOf(tbs.subjectPublicKeyInfo);
  return {
    signer: { name: tbs.subject, privateKey: createPrivateKey(ca.key) },
    keyId,
    notAfter: tbs.validity.notAfter.getTime(),
  };
}

function issueLeaf(ca: CertificateAndKey, subject: DistinguishedName, purposeExtensions: readonly Extension[]): CertificateAndKey {
  const authority = parseAuthority(ca);
  const { publicKey, privateKey } = newKeyPair();
  const now = Date.now();
  // A leaf outliving its CA would fail verification anyway; cap it so its notAfter tells the truth.
  const notAfter = Math.min(now + LEAF_LIFETIME_MS, authority.notAfter.getTime());
  const der = signCertificate(
    {
      subject: encodeDistinguishedName(subject),
      publicKey,
      notBefore: new Date(now - CLOCK_SKEW_MS),
      notAfter: new Date(notAfter),
      extensions: [
        basicConstraints(false),
        keyUsage(KeyUsageFlags.digitalSignature),
        ...purposeExtensions,
        authorityKeyIdentifier(authority.keyId),
      ],
    },
    authority.signer,
  );
  return { cert: pemEncode('CERTIFICATE', der), key: privateKeyPem(privateKey) };
}

/** `hosts` are DNS names and IPv4/IPv6 addresses (brackets allowed), all put in subjectAltName. */
export function issueServingCertificate(ca: CertificateAndKey, commonName: string, hosts: readonly string[]): CertificateAndKey {
  return issueLeaf(ca, { commonName }, [extendedKeyUsage([id_kp_serverAuth]), subjectAltName(subjectAltNamesFor(hosts))]);
}

/** The Kubernetes x509 authenticator reads the user name from CN and one group from each O. */
export function issueClientCertificate(ca: CertificateAndKey, user: string, groups: readonly string[]): CertificateAndKey {
  return issueLeaf(ca, { commonName: user, organizations: groups }, [extendedKeyUsage([id_kp_clientAuth])]);
}
