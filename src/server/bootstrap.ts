import { StatusError } from '../api/errors.js';
import type { Registry } from '../registry/registry.js';

/** The namespaces every cluster has from the start. */
export const SYSTEM_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function ensureSystemNamespaces(registry: Registry): Promise<void> {
  const namespaces = registry.lookup('', 'v1', 'namespaces');
  if (namespaces === undefined) return;
  for (const name of SYSTEM_NAMESPACES) {
    try {
      await namespaces.create(undefined, { metadata: { name } });
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    }
  }
}
