import { forbidden, notFound } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import type { Registry } from '../registry/registry.js';

/**
 * NamespaceLifecycle admission: content may only be created in a namespace that exists (404 otherwise) and is not
 * terminating (403). The namespace is read live on every create, so a namespace created a moment ago is always
 * seen; its decoded state is cached by resourceVersion because parsing it is the expensive part.
 */
export function namespaceLifecycle(registry: () => Registry) {
  const terminating = new Map<string, { resourceVersion: string; terminating: boolean }>();
  return async (operation: 'CREATE' | 'UPDATE' | 'DELETE', info: ResourceInfo, obj: KubeObject): Promise<void> => {
    if (operation !== 'CREATE' || !info.namespaced) return;
    const namespace = obj.metadata.namespace ?? '';
    const namespaces = registry().lookup('', 'v1', 'namespaces');
    if (namespaces === undefined) return;
    const resourceVersion = await namespaces.currentResourceVersion(undefined, namespace);
    if (resourceVersion === undefined) {
      terminating.delete(namespace);
      throw notFound({ group: '', resource: 'namespaces' }, namespace);
    }
    let state = terminating.get(namespace);
    if (state?.resourceVersion !== resourceVersion) {
      const ns = await namespaces.get(undefined, namespace);
      state = { resourceVersion: ns.metadata.resourceVersion ?? '', terminating: ns.metadata.deletionTimestamp !== undefined };
      terminating.set(namespace, state);
    }
    if (state.terminating) {
      throw forbidden(
        { group: info.group, resource: info.plural },
        obj.metadata.name ?? '',
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  };
}
