import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** How kubectl reaches and authenticates to a Cascade server. */
export interface KubeconfigCredentials {
  /** PEM of the CA that signed the serving certificate; absent for a plain-HTTP (--insecure-http) server. */
  readonly caCert?: string;
  /** The admin bearer token; absent for a plain-HTTP server, which treats every request as its admin. */
  readonly token?: string;
}

/** A kubeconfig with one cluster, user and context named "cascade", which kubectl and client libraries use as is. */
export function kubeconfigFor(serverUrl: string, credentials: KubeconfigCredentials = {}): string {
  const cluster =
    credentials.caCert === undefined
      ? // client-node refuses plain http unless TLS verification is explicitly off; kubectl accepts either.
        { server: serverUrl, 'insecure-skip-tls-verify': true }
      : { server: serverUrl, 'certificate-authority-data': Buffer.from(credentials.caCert).toString('base64') };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'cascade', cluster }],
    users: [{ name: 'cascade-admin', user: credentials.token === undefined ? {} : { token: credentials.token } }],
    contexts: [{ name: 'cascade', context: { cluster: 'cascade', user: 'cascade-admin', namespace: 'default' } }],
    'current-context': 'cascade',
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, serverUrl: string, credentials: KubeconfigCredentials = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, kubeconfigFor(serverUrl, credentials), { mode: 0o600 });
}
