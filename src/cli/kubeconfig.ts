import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** A kubeconfig with one cluster, user and context named "cascade", which kubectl and client libraries use as is. */
export function kubeconfigFor(serverUrl: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    // client-node refuses plain http unless TLS verification is explicitly off; kubectl accepts either.
    clusters: [{ name: 'cascade', cluster: { server: serverUrl, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'cascade-admin', user: {} }],
    contexts: [{ name: 'cascade', context: { cluster: 'cascade', user: 'cascade-admin', namespace: 'default' } }],
    'current-context': 'cascade',
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, serverUrl: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, kubeconfigFor(serverUrl), { mode: 0o600 });
}
