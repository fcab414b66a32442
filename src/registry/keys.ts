import type { ResourceInfo } from '../api/resource-info.js';
import { registerKeyType } from '../storage/key-types.js';

/**
 * Storage keys laid out as kube-apiserver lays them out in etcd: `/registry/<resource>/<namespace>/<name>` for
 * the groups Kubernetes stores by bare resource name, `/registry/<group>/<resource>/...` for the others.
 */
const PREFIX_OVERRIDES: Readonly<Record<string, string>> = {
  services: 'services/specs',
  endpoints: 'services/endpoints',
  nodes: 'minions',
  'customresourcedefinitions.apiextensions.k8s.io': 'apiextensions.k8s.io/customresourcedefinitions',
  'apiservices.apiregistration.k8s.io': 'apiregistration.k8s.io/apiservices',
  'events.events.k8s.io': 'events',
  'ingresses.networking.k8s.io': 'ingress',
};

const BARE_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'networking.k8s.io',
  'rbac.authorization.k8s.io',
]);

export const REGISTRY_ROOT = '/registry';

const prefixes = new WeakMap<Pick<ResourceInfo, 'group' | 'plural'>, string>();

/** Computed once per resource: every read and write of an object builds its key from it. */
export function resourcePrefix(info: Pick<ResourceInfo, 'group' | 'plural'>): string {
  let prefix = prefixes.get(info);
  if (prefix === undefined) {
    prefix = computePrefix(info);
    prefixes.set(info, prefix);
    registerKeyType(prefix, info.group === '' ? info.plural : `${info.plural}.${info.group}`);
  }
  return prefix;
}

function computePrefix(info: Pick<ResourceInfo, 'group' | 'plural'>): string {
  const qualified = info.group === '' ? info.plural : `${info.plural}.${info.group}`;
  const override = PREFIX_OVERRIDES[qualified];
  if (override !== undefined) return `${REGISTRY_ROOT}/${override}/`;
  if (BARE_GROUPS.has(info.group)) return `${REGISTRY_ROOT}/${info.plural}/`;
  return `${REGISTRY_ROOT}/${info.group}/${info.plural}/`;
}

/** The prefix covering a collection: all namespaces when namespace is undefined. */
export function collectionPrefix(info: ResourceInfo, namespace: string | undefined): string {
  const base = resourcePrefix(info);
  return info.namespaced && namespace !== undefined ? `${base}${namespace}/` : base;
}

/** Joined into one flat string, not concatenated into a rope: see "Map keys" in docs/architecture.md. */
export function objectKey(info: ResourceInfo, namespace: string | undefined, name: string): string {
  return info.namespaced ? [resourcePrefix(info), namespace ?? '', '/', name].join('') : [resourcePrefix(info), name].join('');
}
