import { KeyUsageFlags, id_ce_subjectAltName } from '@peculiar/asn1-x509';
import { signCertificate } from './certificate-builder.js';
import type { CertificateRequest } from './certificate-request.js';
import { authorityKeyIdentifier, basicConstraints, extendedKeyUsage, keyUsage } from './extensions.js';
import { type CertificateAndKey, parseAuthority } from './issue.js';
import { pemEncode } from './pem.js';

/** certificates.k8s.io key usages that are X.509 key usage bits (keyUsagesFromStrings). */
const KEY_USAGE_BITS: Readonly<Record<string, number>> = {
  signing: KeyUsageFlags.digitalSignature,
  'digital signature': KeyUsageFlags.digitalSignature,
  'content commitment': KeyUsageFlags.nonRepudiation,
  'key encipherment': KeyUsageFlags.keyEncipherment,
  'key agreement': KeyUsageFlags.keyAgreement,
  'data encipherment': KeyUsageFlags.dataEncipherment,
  'cert sign': KeyUsageFlags.keyCertSign,
  'crl sign': KeyUsageFlags.cRLSign,
  'encipher only': KeyUsageFlags.encipherOnly,
  'decipher only': KeyUsageFlags.decipherOnly,
};

/** …and the ones that are extended key usages, by OID. */
const EXTENDED_KEY_USAGES: Readonly<Record<string, string>> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

/** kube-controller-manager's signer backdates certificates this much, for clients whose clocks run behind. */
const BACKDATE_MS = 5 * 60_000;

/**
 * Issues a leaf certificate for an approved request, as the csrsigning controller's CA does: the request's subject,
 * key and subjectAltName, the key usages the CertificateSigningRequest lists, valid for `ttlMs` (never past the CA).
 */
export function signRequest(
  ca: CertificateAndKey,
  request: CertificateRequest,
  usages: readonly string[],
  ttlMs: number,
  now = Date.now(),
): string {
  const authority = parseAuthority(ca);
  const bits = usages.reduce((flags, usage) => flags | (KEY_USAGE_BITS[usage] ?? 0), 0);
  const extended = [...new Set(usages.flatMap((usage) => EXTENDED_KEY_USAGES[usage] ?? []))];
  const altNames = request.extensions.filter((ext) => ext.extnID === id_ce_subjectAltName);
  const der = signCertificate(
    {
      subject: request.subject,
      publicKey: request.publicKey,
      notBefore: new Date(now - BACKDATE_MS),
      notAfter: new Date(Math.min(now + ttlMs, authority.notAfter.getTime())),
      extensions: [
        ...(bits === 0 ? [] : [keyUsage(bits)]),
        ...(extended.length === 0 ? [] : [extendedKeyUsage(extended)]),
        basicConstraints(false),
        authorityKeyIdentifier(authority.keyId),
        ...altNames,
      ],
    },
    authority.signer,
  );
  return pemEncode('CERTIFICATE', der);
}
