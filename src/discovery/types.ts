/**
 * Wire shapes of the discovery documents (meta/v1 APIVersions, APIGroupList, APIGroup, APIResourceList and
 * apidiscovery.k8s.io APIGroupDiscoveryList). Property order follows the Go structs, so serialised documents
 * list fields in the same order as kube-apiserver.
 */

import type { GroupVersionKind } from '../api/types.js';

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

/** An entry of APIGroupList.groups carries no kind/apiVersion; the standalone /apis/<g> document does. */
export interface APIGroupEntry {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroup extends APIGroupEntry {
  kind: 'APIGroup';
  apiVersion: 'v1';
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroupEntry[];
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList {
  kind: 'APIResourceList';
  /** Absent for the core group (/api/v1), "v1" for named groups. */
  apiVersion?: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  resources?: APIResourceDiscovery[];
  freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  /** Go serialises the zero metav1.Time of an unset creationTimestamp as null. */
  metadata: { name?: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: `apidiscovery.k8s.io/${AggregatedDiscoveryVersion}`;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}
