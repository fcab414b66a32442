import { forbidden, notFound, StatusError } from '../api/errors.js';
import { isObject, type KubeObject } from '../api/types.js';
import type { MutatingAdmissionPlugin } from '../registry/admission/plugin.js';

/** R3.8: namespaces the cluster cannot do without. */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** R3.12: how long after admitting a namespace's DELETE its lookups bypass the cache. */
export const FORCE_LIVE_LOOKUP_TTL_MS = 30_000;

export interface NamespaceLifecycleOptions {
  /** The namespace as the server's namespace informer holds it; undefined when the cache has none (yet). */
  readonly cached: (name: string) => KubeObject | undefined;
  /** A read from storage, for names the cache does not hold or must not be trusted for. */
  readonly live: (name: string) => Promise<KubeObject | undefined>;
  readonly now?: () => number;
}

const isTerminating = (ns: KubeObject): boolean => isObject(ns.status) && ns.status.phase === 'Terminating';

/**
 * NamespaceLifecycle admission (R3.8–R3.12): content may only be created in a namespace that exists (404) and is
 * not terminating (403); the system namespaces cannot be deleted. As in Kubernetes the namespace comes from an
 * informer's cache, so a create costs no storage read; a name the cache lacks (created a moment ago) is read live
 * before it is refused, and so is one whose deletion this server admitted lately while the cache still calls it
 * active.
 */
export function namespaceLifecycle(options: NamespaceLifecycleOptions): MutatingAdmissionPlugin {
  const now = options.now ?? Date.now;
  /** Namespace name → until when its lookups go to storage. */
  const forceLiveLookup = new Map<string, number>();
  const mustLookUpLive = (name: string, cached: KubeObject | undefined): boolean => {
    const until = forceLiveLookup.get(name);
    if (until === undefined) return false;
    if (until <= now()) {
      forceLiveLookup.delete(name);
      return false;
    }
    return cached !== undefined && !isTerminating(cached);
  };
  return {
    name: 'NamespaceLifecycle',
    handles: (operation) => operation === 'CREATE' || operation === 'DELETE',
    admit: async ({ operation, resource: info, name, namespace: objectNamespace, object }) => {
      if (info.group === '' && info.plural === 'namespaces') {
        if (operation !== 'DELETE') return;
        if (IMMORTAL_NAMESPACES.has(name)) {
          throw forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
        }
        // Re-inserted so that the map stays in expiry order and expired entries can be dropped from its front.
        forceLiveLookup.delete(name);
        forceLiveLookup.set(name, now() + FORCE_LIVE_LOOKUP_TTL_MS);
        for (const [oldest, until] of forceLiveLookup) {
          if (until > now()) break;
          forceLiveLookup.delete(oldest);
        }
        return;
      }
      // Without a namespace there is nothing to look up: validation answers that metadata.namespace is required.
      const namespace = objectNamespace ?? '';
      if (operation !== 'CREATE' || !info.namespaced || namespace === '') return;
      let ns = options.cached(namespace);
      if (ns === undefined || mustLookUpLive(namespace, ns)) ns = await options.live(namespace);
      if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, namespace);
      if (isTerminating(ns)) {
        const denied = forbidden(
          { group: info.group, resource: info.plural },
          name || (object?.metadata.generateName ?? ''),
          `unable to create new content in namespace ${namespace} because it is being terminated`,
        );
        throw new StatusError(denied.code, denied.reason, denied.message, {
          ...denied.details,
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
        });
      }
    },
  };
}
