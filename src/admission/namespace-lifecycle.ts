import { forbidden, notFound, StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { Registry } from '../registry/registry.js';

/** R3.8: namespaces the cluster cannot do without. */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/**
 * NamespaceLifecycle admission (R3.8–R3.11): content may only be created in a namespace that exists (404) and is
 * not terminating (403); the system namespaces cannot be deleted. The namespace is read live on every create, so
 * a namespace created a moment ago is always seen; its phase is cached by resourceVersion because decoding the
 * object is the expensive part.
 */
export function namespaceLifecycle(registry: () => Registry) {
  const phases = new Map<string, { resourceVersion: string; terminating: boolean }>();
  return async (operation: 'CREATE' | 'UPDATE' | 'DELETE', info: ResourceInfo, obj: KubeObject): Promise<void> => {
    if (operation === 'DELETE' && info.group === '' && info.plural === 'namespaces' && IMMORTAL_NAMESPACES.has(obj.metadata.name ?? '')) {
      throw forbidden({ group: '', resource: 'namespaces' }, obj.metadata.name ?? '', 'this namespace may not be deleted');
    }
    if (operation !== 'CREATE' || !info.namespaced) return;
    const namespace = obj.metadata.namespace ?? '';
    const namespaces = registry().lookup('', 'v1', 'namespaces');
    if (namespaces === undefined) return;
    const resourceVersion = await namespaces.currentResourceVersion(undefined, namespace);
    if (resourceVersion === undefined) {
      phases.delete(namespace);
      throw notFound({ group: '', resource: 'namespaces' }, namespace);
    }
    let state = phases.get(namespace);
    if (state?.resourceVersion !== resourceVersion) {
      const ns = await namespaces.get(undefined, namespace);
      const phase = isObject(ns.status) ? ns.status.phase : undefined;
      state = { resourceVersion: ns.metadata.resourceVersion ?? '', terminating: phase === 'Terminating' };
      phases.set(namespace, state);
    }
    if (state.terminating) {
      const denied = forbidden(
        { group: info.group, resource: info.plural },
        obj.metadata.name || (obj.metadata.generateName ?? ''),
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
      throw new StatusError(denied.code, denied.reason, denied.message, {
        ...denied.details,
        causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
      });
    }
  };
}
