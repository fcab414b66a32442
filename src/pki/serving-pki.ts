import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { coversAll, subjectAltNamesOf } from './certificate-inspection.js';
import { readFileIfExists, writeFileAtomic } from './file-io.js';
import { isUnspecifiedAddress, parseHost, subjectAltNamesFor } from './hosts.js';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate } from './issue.js';
import type { CertificateAndKey } from './issue.js';

export interface ServingPkiPaths {
  readonly dir: string;
  readonly caCert: string;
  readonly caKey: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly frontProxyCaCert: string;
  readonly frontProxyCaKey: string;
  readonly frontProxyClientCert: string;
  readonly frontProxyClientKey: string;
}

/** Every value is PEM; keys are PKCS#8. */
export interface ServingPki {
  readonly caCert: string;
  readonly caKey: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly frontProxyCaCert: string;
  readonly frontProxyCaKey: string;
  readonly frontProxyClientCert: string;
  readonly frontProxyClientKey: string;
  readonly paths: ServingPkiPaths;
}

export const CA_COMMON_NAME = 'cascade-ca';
export const FRONT_PROXY_CA_COMMON_NAME = 'cascade-front-proxy-ca';
export const SERVER_COMMON_NAME = 'kube-apiserver';
/** The name aggregated API servers are told to expect (--requestheader-allowed-names). */
export const FRONT_PROXY_CLIENT_COMMON_NAME = 'front-proxy-client';

/**
 * Loopback in every spelling clients use, plus the in-cluster names kube-apiserver also
 * puts in its own serving certificate.
 */
export const DEFAULT_SERVING_HOSTS: readonly string[] = [
  '127.0.0.1',
  '::1',
  'localhost',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];

/** Certificates this close to expiry are replaced at start rather than left to lapse mid-run. */
const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;
const KEY_MODE = 0o600;
const CERT_MODE = 0o644;

export function servingPkiPaths(dataDir: string): ServingPkiPaths {
  const dir = join(dataDir, 'pki');
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    serverCert: join(dir, 'apiserver.crt'),
    serverKey: join(dir, 'apiserver.key'),
    frontProxyCaCert: join(dir, 'front-proxy-ca.crt'),
    frontProxyCaKey: join(dir, 'front-proxy-ca.key'),
    frontProxyClientCert: join(dir, 'front-proxy-client.crt'),
    frontProxyClientKey: join(dir, 'front-proxy-client.key'),
  };
}

/** The defaults plus the caller's hosts; wildcard listen addresses (0.0.0.0, ::) are dropped. */
export function servingHostsFor(hosts: readonly string[]): string[] {
  const extra = hosts.filter((host) => !isUnspecifiedAddress(parseHost(host)));
  return [...DEFAULT_SERVING_HOSTS, ...extra];
}

interface LoadedPair {
  readonly pem: CertificateAndKey;
  readonly certificate: X509Certificate;
}

function parseCertificateFile(path: string, pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (error) {
    throw new Error(`PKI file ${path} is not a valid PEM certificate; remove it and its key to have both regenerated`, {
      cause: error,
    });
  }
}

function parseKeyFile(path: string, pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (error) {
    throw new Error(`PKI file ${path} is not a valid PEM private key; remove it and its certificate to have both regenerated`, {
      cause: error,
    });
  }
}

/** Both files parsed and matching, or undefined when either is absent. */
function readPair(certPath: string, keyPath: string): LoadedPair | undefined {
  const certPem = readFileIfExists(certPath);
  const keyPem = readFileIfExists(keyPath);
  if (certPem === undefined || keyPem === undefined) return undefined;
  const certificate = parseCertificateFile(certPath, certPem);
  const key = parseKeyFile(keyPath, keyPem);
  if (!certificate.checkPrivateKey(key)) {
    throw new Error(`PKI files ${certPath} and ${keyPath} do not belong together; remove both to have them regenerated`);
  }
  return { pem: { cert: certPem, key: keyPem }, certificate };
}

function writePair(certPath: string, keyPath: string, pair: CertificateAndKey): LoadedPair {
  // Key first: a certificate on disk therefore always has its key beside it.
  writeFileAtomic(keyPath, pair.key, KEY_MODE);
  writeFileAtomic(certPath, pair.cert, CERT_MODE);
  return { pem: pair, certificate: new X509Certificate(pair.cert) };
}

function expiresSoon(certificate: X509Certificate, now: number): boolean {
  return Date.parse(certificate.validTo) - now < RENEW_BEFORE_MS;
}

function loadOrCreateAuthority(certPath: string, keyPath: string, commonName: string, now: number): LoadedPair {
  const existing = readPair(certPath, keyPath);
  if (existing === undefined && readFileIfExists(certPath) !== undefined) {
    // A new CA would silently invalidate every client that trusts the old one.
    throw new Error(`PKI file ${keyPath} is missing while ${certPath} exists; restore the key or remove both`);
  }
  if (existing !== undefined && !existing.certificate.ca) {
    throw new Error(`PKI file ${certPath} is not a CA certificate; remove it and ${keyPath} to have them regenerated`);
  }
  if (existing !== undefined && !expiresSoon(existing.certificate, now)) return existing;
  // An authority near its end is replaced now, and every leaf with it, rather than left to break
  // all clients at once when it lapses mid-run; kubeconfigs written after this start carry the new one.
  return writePair(certPath, keyPath, createCertificateAuthority(commonName));
}

function loadOrIssueLeaf(
  certPath: string,
  keyPath: string,
  authority: LoadedPair,
  now: number,
  isStillSuitable: (pair: LoadedPair) => boolean,
  issue: () => CertificateAndKey,
): LoadedPair {
  const existing = readPair(certPath, keyPath);
  if (existing !== undefined && isCurrentLeaf(existing, authority, now) && isStillSuitable(existing)) return existing;
  return writePair(certPath, keyPath, issue());
}

/** Signed by the authority on disk now (it may have been replaced) and not about to expire. */
function isCurrentLeaf(leaf: LoadedPair, authority: LoadedPair, now: number): boolean {
  return (
    leaf.certificate.checkIssued(authority.certificate) &&
    leaf.certificate.verify(authority.certificate.publicKey) &&
    !expiresSoon(leaf.certificate, now)
  );
}

/**
 * Makes `<dataDir>/pki` hold a CA, a serving certificate for `hosts` (and the defaults), and the
 * front-proxy CA and client certificate the aggregator presents. Existing files are reused; the
 * serving certificate is re-issued under the same CA when it misses a requested host or nears expiry.
 * Synchronous because it runs once before the server listens and key generation is CPU-bound anyway.
 */
export function loadOrCreateServingPki(dataDir: string, hosts: readonly string[]): ServingPki {
  const paths = servingPkiPaths(dataDir);
  const required = subjectAltNamesFor(servingHostsFor(hosts));
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const now = Date.now();

  const ca = loadOrCreateAuthority(paths.caCert, paths.caKey, CA_COMMON_NAME, now);
  const server = loadOrIssueLeaf(
    paths.serverCert,
    paths.serverKey,
    ca,
    now,
    (pair) => coversAll(subjectAltNamesOf(pair.pem.cert), required),
    () => issueServingCertificate(ca.pem, SERVER_COMMON_NAME, [...required.dnsNames, ...required.ipAddresses]),
  );
  const frontProxyCa = loadOrCreateAuthority(paths.frontProxyCaCert, paths.frontProxyCaKey, FRONT_PROXY_CA_COMMON_NAME, now);
  const frontProxyClient = loadOrIssueLeaf(
    paths.frontProxyClientCert,
    paths.frontProxyClientKey,
    frontProxyCa,
    now,
    (pair) => pair.certificate.subject === `CN=${FRONT_PROXY_CLIENT_COMMON_NAME}`,
    () => issueClientCertificate(frontProxyCa.pem, FRONT_PROXY_CLIENT_COMMON_NAME, []),
  );

  return {
    caCert: ca.pem.cert,
    caKey: ca.pem.key,
    serverCert: server.pem.cert,
    serverKey: server.pem.key,
    frontProxyCaCert: frontProxyCa.pem.cert,
    frontProxyCaKey: frontProxyCa.pem.key,
    frontProxyClientCert: frontProxyClient.pem.cert,
    frontProxyClientKey: frontProxyClient.pem.key,
    paths,
  };
}
