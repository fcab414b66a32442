import { forbidden, notFound } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { Registry } from '../registry/registry.js';

/**
 * NamespaceLifecycle admission (R3.x): content may only be created in a namespace that exists and is not
 * terminating. Reads the live namespace on every create; an informer-backed cache can replace the read later.
 */
export function namespaceLifecycle(registry: () => Registry) {
  return async (operation: 'CREATE' | 'UPDATE' | 'DELETE', info: ResourceInfo, obj: KubeObject): Promise<void> => {
    if (operation !== 'CREATE' || !info.namespaced) return;
    const namespace = obj.metadata.namespace ?? '';
    const namespaces = registry().lookup('', 'v1', 'namespaces');
    if (namespaces === undefined) return;
    let ns: KubeObject;
    try {
      ns = await namespaces.get(undefined, namespace);
    } catch {
      throw notFound({ group: '', resource: 'namespaces' }, namespace);
    }
    if (ns.metadata.deletionTimestamp !== undefined) {
      throw forbidden(
        { group: info.group, resource: info.plural },
        obj.metadata.name ?? '',
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  };
}
