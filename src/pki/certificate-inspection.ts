import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, SubjectAlternativeName, id_ce_subjectAltName } from '@peculiar/asn1-x509';
import { parseHost } from './hosts.js';
import type { SubjectAltNames } from './hosts.js';
import { pemDecode } from './pem.js';

/** The certificate's DNS and IP SANs, normalised like requested hosts so the two compare directly. */
export function subjectAltNamesOf(certPem: string): SubjectAltNames {
  const tbs = AsnConvert.parse(pemDecode(certPem, 'CERTIFICATE'), Certificate).tbsCertificate;
  const extension = tbs.extensions?.find((ext) => ext.extnID === id_ce_subjectAltName);
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  if (extension) {
    for (const name of AsnConvert.parse(extension.extnValue.buffer, SubjectAlternativeName)) {
      if (name.dNSName !== undefined) dnsNames.push(name.dNSName.toLowerCase());
      if (name.iPAddress !== undefined) {
        const host = parseHost(name.iPAddress);
        if (host.kind === 'ip') ipAddresses.push(host.address);
      }
    }
  }
  return { dnsNames, ipAddresses };
}

export function coversAll(certificate: SubjectAltNames, required: SubjectAltNames): boolean {
  return (
    required.dnsNames.every((name) => certificate.dnsNames.includes(name)) &&
    required.ipAddresses.every((address) => certificate.ipAddresses.includes(address))
  );
}
