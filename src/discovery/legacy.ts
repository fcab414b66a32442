/**
 * Builders for the unaggregated discovery documents (R8.1–R8.7): /api, /api/v1, /apis, /apis/<g>,
 * /apis/<g>/<v>. Pure functions of the served resources, so custom resources appear as soon as they
 * are part of the list.
 */

import type { ResourceInfo } from '../api/resource-info.js';
import { apiVersionOf } from '../api/types.js';
import { type GroupVersions, groupsInLegacyOrder } from './group-order.js';
import { storageVersionHashOf } from './storage-version-hash.js';
import type {
  APIGroup,
  APIGroupEntry,
  APIGroupList,
  APIResource,
  APIResourceList,
  APIVersions,
  GroupVersionForDiscovery,
} from './types.js';

/** GET /api (R8.1). `serverAddress` is "<host>:<port>" as clients reach the server. */
export function apiVersions(serverAddress: string): APIVersions {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function compareNames(a: APIResource, b: APIResource): number {
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

function resourceEntries(info: ResourceInfo): APIResource[] {
  const main: APIResource = {
    name: info.plural,
    singularName: info.singular,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: [...info.verbs],
    ...(info.shortNames.length > 0 ? { shortNames: [...info.shortNames] } : {}),
    ...(info.categories.length > 0 ? { categories: [...info.categories] } : {}),
    // Never stored, so there is no storage version to hash (Kubernetes omits it too).
    ...(info.review || info.unstored ? {} : { storageVersionHash: storageVersionHashOf(info) }),
  };

  // A subresource names its own group/version only when its response kind is not the parent's.
  const subresources = info.subresources.map(
    (sub): APIResource => ({
      name: `${info.plural}/${sub.name}`,
      singularName: '',
      namespaced: info.namespaced,
      ...(sub.kind === undefined ? {} : { group: sub.group ?? '', version: sub.version ?? '' }),
      kind: sub.kind ?? info.kind,
      verbs: [...sub.verbs],
    }),
  );
  return [main, ...subresources];
}

/**
 * Resources of one group-version as APIResource entries, subresources as separate "<plural>/<sub>"
 * entries, ordered by name as the API installer registers them (R8.6, R8.7).
 */
export function apiResourcesOf(resources: readonly ResourceInfo[], group: string, version: string): APIResource[] {
  return resources
    .filter((info) => info.group === group && info.version === version)
    .flatMap(resourceEntries)
    .sort(compareNames);
}

/**
 * GET /api/v1 (R8.2) and GET /apis/<g>/<v> (R8.5); undefined when nothing is served at that
 * group-version. The core group's list carries no apiVersion.
 */
export function apiResourceList(resources: readonly ResourceInfo[], group: string, version: string): APIResourceList | undefined {
  const entries = apiResourcesOf(resources, group, version);
  if (entries.length === 0) return undefined;
  const groupVersion = apiVersionOf(group, version);
  if (group === '') return { kind: 'APIResourceList', groupVersion, resources: entries };
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: entries };
}

function versionForDiscovery(group: string, version: string): GroupVersionForDiscovery {
  return { groupVersion: apiVersionOf(group, version), version };
}

function groupEntry({ group, versions }: GroupVersions): APIGroupEntry | undefined {
  const preferred = versions[0];
  if (preferred === undefined) return undefined;
  return {
    name: group,
    versions: versions.map((version) => versionForDiscovery(group, version)),
    preferredVersion: versionForDiscovery(group, preferred),
  };
}

/** GET /apis (R8.3): every named group, in APIService priority order; the core group is not listed. */
export function apiGroupList(resources: readonly ResourceInfo[]): APIGroupList {
  const groups = groupsInLegacyOrder(resources)
    .map(groupEntry)
    .filter((entry): entry is APIGroupEntry => entry !== undefined);
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** GET /apis/<g> (R8.4); undefined when the group is not served. */
export function apiGroup(resources: readonly ResourceInfo[], group: string): APIGroup | undefined {
  if (group === '') return undefined;
  const found = groupsInLegacyOrder(resources).find((entry) => entry.group === group);
  const entry = found === undefined ? undefined : groupEntry(found);
  if (entry === undefined) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...entry };
}
