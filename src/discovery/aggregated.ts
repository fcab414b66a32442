/**
 * The aggregated discovery document (apidiscovery.k8s.io APIGroupDiscoveryList) served on /api and /apis
 * (R8.8, R8.9). Pure function of the served resources.
 */

import type { ResourceInfo, SubresourceInfo } from '../api/resource-info.js';
import type { GroupVersionKind } from '../api/types.js';
import { groupsInAggregatedOrder } from './group-order.js';
import type {
  AggregatedDiscoveryVersion,
  APIGroupDiscovery,
  APIGroupDiscoveryList,
  APIResourceDiscovery,
  APISubresourceDiscovery,
} from './types.js';

export { aggregatedDiscoveryCacheHeaders, discoveryETag, isNotModified } from './etag.js';
export {
  AGGREGATED_DISCOVERY_CONTENT_TYPE,
  AGGREGATED_DISCOVERY_V2BETA1_CONTENT_TYPE,
  aggregatedDiscoveryContentType,
  type DiscoveryFormat,
  LEGACY_DISCOVERY_CONTENT_TYPE,
  negotiateDiscovery,
} from './negotiation.js';

/** 'core' is the document of /api, 'groups' the one of /apis. */
export type DiscoveryScope = 'core' | 'groups';

function byString<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === kb) return 0;
    return ka < kb ? -1 : 1;
  };
}

/**
 * Built-in resources report their response kind without group/version (the API installer leaves them
 * empty unless the kind lives elsewhere, like Scale); custom resources report the full group-version-kind.
 */
function ownResponseKind(info: ResourceInfo): GroupVersionKind {
  if (info.custom === true) return { group: info.group, version: info.version, kind: info.kind };
  return { group: '', version: '', kind: info.kind };
}

function subresourceDiscovery(info: ResourceInfo, sub: SubresourceInfo): APISubresourceDiscovery {
  const responseKind =
    sub.kind === undefined
      ? ownResponseKind(info)
      : { group: sub.group ?? '', version: sub.version ?? '', kind: sub.kind };
  return { subresource: sub.name, responseKind, verbs: [...sub.verbs] };
}

function resourceDiscovery(info: ResourceInfo): APIResourceDiscovery {
  const subresources = [...info.subresources]
    .sort(byString((sub) => sub.name))
    .map((sub) => subresourceDiscovery(info, sub));
  return {
    resource: info.plural,
    responseKind: ownResponseKind(info),
    scope: info.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: info.singular,
    verbs: [...info.verbs],
    ...(info.shortNames.length > 0 ? { shortNames: [...info.shortNames] } : {}),
    ...(info.categories.length > 0 ? { categories: [...info.categories] } : {}),
    ...(subresources.length > 0 ? { subresources } : {}),
  };
}

function groupDiscovery(resources: readonly ResourceInfo[], group: string, versions: readonly string[]): APIGroupDiscovery {
  return {
    metadata: group === '' ? { creationTimestamp: null } : { name: group, creationTimestamp: null },
    versions: versions.map((version) => ({
      version,
      resources: resources
        .filter((info) => info.group === group && info.version === version)
        .sort(byString((info) => info.plural))
        .map(resourceDiscovery),
      freshness: 'Current',
    })),
  };
}

export function aggregatedDiscovery(
  resources: readonly ResourceInfo[],
  scope: DiscoveryScope,
  version: AggregatedDiscoveryVersion = 'v2',
): APIGroupDiscoveryList {
  const items = groupsInAggregatedOrder(resources)
    .filter(({ group }) => (scope === 'core') === (group === ''))
    .map(({ group, versions }) => groupDiscovery(resources, group, versions));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}
