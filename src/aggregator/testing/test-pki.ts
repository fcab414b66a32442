/**
 * Throwaway certificates for aggregator tests, issued with src/pki: a serving CA and a backend serving
 * certificate, the front-proxy CA and its client certificate, and an unrelated CA with a client certificate of its
 * own (a wrong caBundle, an untrusted proxy).
 */

import { type CertificateAndKey, createCertificateAuthority, issueClientCertificate, issueServingCertificate } from '../../pki/issue.js';

export interface TestPki {
  readonly servingCa: string;
  /** Valid for the given DNS names and 127.0.0.1. */
  readonly serving: CertificateAndKey;
  readonly frontProxyCa: string;
  /** CN=front-proxy-client, signed by the front-proxy CA. */
  readonly frontProxyClient: CertificateAndKey;
  readonly otherCa: string;
  /** CN=front-proxy-client too, but signed by the unrelated CA. */
  readonly untrustedClient: CertificateAndKey;
}

export function createTestPki(serverNames: readonly string[]): TestPki {
  const servingCa = createCertificateAuthority('serving-ca');
  const frontProxyCa = createCertificateAuthority('front-proxy-ca');
  const otherCa = createCertificateAuthority('other-ca');
  return {
    servingCa: servingCa.cert,
    serving: issueServingCertificate(servingCa, serverNames[0] ?? '127.0.0.1', [...serverNames, '127.0.0.1']),
    frontProxyCa: frontProxyCa.cert,
    frontProxyClient: issueClientCertificate(frontProxyCa, 'front-proxy-client', []),
    otherCa: otherCa.cert,
    untrustedClient: issueClientCertificate(otherCa, 'front-proxy-client', []),
  };
}
