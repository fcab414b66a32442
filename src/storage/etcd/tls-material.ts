import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import type { TlsMaterial } from './http2/socket.js';

/** What each piece of TLS material is called where it came from: kube-apiserver's flags, or the embed options. */
export interface TlsMaterialNames {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/**
 * Refuses, before any connection is tried, TLS material that cannot work: a client certificate without its key,
 * a key that is not the certificate's (kube-apiserver fails its start with Go's "tls: private key does not
 * match public key" there), or a CA file without a certificate. A server would otherwise start and fail every
 * request with an OpenSSL message naming no file.
 */
export function checkTlsMaterial(material: TlsMaterial, names: TlsMaterialNames): void {
  if ((material.cert === undefined) !== (material.key === undefined)) {
    throw new Error(`${names.cert} and ${names.key} must be given together`);
  }
  if (material.ca !== undefined) {
    try {
      new X509Certificate(material.ca);
    } catch {
      throw new Error(`unable to load ${names.ca}: tls: failed to find any PEM certificate in it`);
    }
  }
  if (material.cert === undefined || material.key === undefined) return;
  try {
    createSecureContext({ cert: material.cert, key: material.key });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH' ? 'tls: private key does not match public key' : `tls: ${(error as Error).message}`;
    throw new Error(`unable to load the etcd client certificate ${names.cert} with ${names.key}: ${reason}`);
  }
}
