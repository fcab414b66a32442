import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFileIfExists, writeFileAtomic } from './file-io.js';

/** A fresh ECDSA P-256 key for signing service account tokens (ES256), as kube-apiserver's --service-account-signing-key-file holds. */
export function generateServiceAccountKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

/**
 * The service account signing key kept beside the serving PKI (`<data-dir>/pki/sa.key`, kubeadm's name), created on
 * first start: tokens issued before a restart stay valid after it.
 */
export function loadOrCreateServiceAccountKey(dataDir: string): KeyObject {
  const dir = join(dataDir, 'pki');
  const path = join(dir, 'sa.key');
  const existing = readFileIfExists(path);
  if (existing !== undefined) {
    try {
      const key = createPrivateKey(existing);
      if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return key;
    } catch (error) {
      throw new Error(
        `PKI file ${path} is not a valid PEM private key; remove it to have it regenerated (tokens issued with it stop working)`,
        {
          cause: error,
        },
      );
    }
    throw new Error(`PKI file ${path} is not an ECDSA P-256 key; remove it to have it regenerated (tokens issued with it stop working)`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = generateServiceAccountKey();
  writeFileAtomic(path, key.export({ type: 'pkcs8', format: 'pem' }) as string, 0o600);
  return key;
}
