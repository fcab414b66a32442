import { StatusError } from '../api/errors.js';
import { KUBERNETES_SERVICE_IP } from '../registry/resources/service-cluster-ips.js';
import { SYSTEM_PRIORITY_CLASSES } from '../kinds/scheduling-v1/priority-class.js';
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

/**
 * kube-apiserver's scheduling/bootstrap-system-priority-classes hook: the two system PriorityClasses are created when
 * missing (deleting one with deletecollection brings it back at the next start) and left alone when present.
 */
export async function ensureSystemPriorityClasses(registry: Registry): Promise<void> {
  const classes = registry.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (classes === undefined) return;
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    try {
      await classes.create(undefined, structuredClone(pc));
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    }
  }
}

/**
 * The `kubernetes` Service and Endpoints in `default`, which every cluster has (the apiserver's own reconciler):
 * ClusterIP 10.96.0.1, port 443 pointing at this server's address.
 */
export async function ensureKubernetesService(registry: Registry, host: string, port: number): Promise<void> {
  const services = registry.lookup('', 'v1', 'services');
  const endpoints = registry.lookup('', 'v1', 'endpoints');
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  const create = async (store: typeof services, obj: Parameters<NonNullable<typeof services>['create']>[1]): Promise<void> => {
    // Present already (a restart on durable storage): keep it, and its reserved address.
    if (store === undefined || (await store.currentResourceVersion('default', 'kubernetes')) !== undefined) return;
    await store.create('default', obj);
  };
  await create(services, {
    metadata: { name: 'kubernetes', labels },
    spec: {
      type: 'ClusterIP',
      clusterIP: KUBERNETES_SERVICE_IP,
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }],
      sessionAffinity: 'None',
    },
  });
  await create(endpoints, {
    metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [
      { addresses: [{ ip: host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host }], ports: [{ name: 'https', port, protocol: 'TCP' }] },
    ],
  });
}
