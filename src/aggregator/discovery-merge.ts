/**
 * Aggregated group-versions merged into the server's own discovery documents, ordered the way kube-aggregator
 * orders APIServices: /apis by groupPriorityMinimum (highest first) then APIService name, a group at the position of
 * its first APIService; aggregated discovery by the group's highest groupPriorityMinimum then group name; versions
 * by versionPriority then kube-aware version. A group-version whose backend is unavailable stays listed (clients
 * then report it as a partial discovery failure): in aggregated discovery it is Stale and carries no resources.
 */

import { compareKubeAwareVersions } from '../discovery/kube-version.js';
import type {
  APIGroup,
  APIGroupDiscovery,
  APIGroupDiscoveryList,
  APIGroupEntry,
  APIGroupList,
  APIResourceDiscovery,
  APIResourceList,
  APIVersionDiscovery,
} from '../discovery/types.js';

export interface GroupVersionPriority {
  readonly group: number;
  readonly version: number;
}

/** Priorities of the server's own group-versions (src/discovery/group-order.ts's table). */
export type PriorityOf = (group: string, version: string) => GroupVersionPriority;

/** One remote APIService as discovery shows it. */
export interface RemoteGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  /** The backend's APIResourceList; undefined while it is unavailable (listed Stale). */
  readonly resources: APIResourceList | undefined;
}

interface Ranked {
  readonly group: string;
  readonly version: string;
  readonly groupPriority: number;
  readonly versionPriority: number;
}

function byString(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function byVersionPreference(a: Ranked, b: Ranked): number {
  if (a.versionPriority !== b.versionPriority) return b.versionPriority - a.versionPriority;
  return compareKubeAwareVersions(b.version, a.version);
}

/** Local group-versions with their priorities, minus those a remote APIService takes over, plus the remote ones. */
function ranked(
  local: readonly { group: string; version: string }[],
  remote: readonly RemoteGroupVersion[],
  priorityOf: PriorityOf,
): Ranked[] {
  const remoteKeys = new Set(remote.map((r) => `${r.group}/${r.version}`));
  const fromLocal = local
    .filter(({ group, version }) => !remoteKeys.has(`${group}/${version}`))
    .map(({ group, version }) => {
      const priority = priorityOf(group, version);
      return { group, version, groupPriority: priority.group, versionPriority: priority.version };
    });
  const fromRemote = remote.map((r) => ({
    group: r.group,
    version: r.version,
    groupPriority: r.groupPriorityMinimum,
    versionPriority: r.versionPriority,
  }));
  return [...fromLocal, ...fromRemote];
}

/** `versions` is never empty: groups are collected from their versions. */
function groupEntry(group: string, versions: readonly [Ranked, ...Ranked[]]): APIGroupEntry {
  const [preferred, ...rest] = [...versions].sort(byVersionPreference) as [Ranked, ...Ranked[]];
  const forDiscovery = (v: Ranked): { groupVersion: string; version: string } => ({
    groupVersion: `${group}/${v.version}`,
    version: v.version,
  });
  return { name: group, versions: [preferred, ...rest].map(forDiscovery), preferredVersion: forDiscovery(preferred) };
}

/** Groups in /apis order, each with its versions (unsorted). */
function groupByName(items: readonly Ranked[]): Map<string, [Ranked, ...Ranked[]]> {
  const groups = new Map<string, [Ranked, ...Ranked[]]>();
  for (const item of items) {
    const versions = groups.get(item.group);
    if (versions === undefined) groups.set(item.group, [item]);
    else versions.push(item);
  }
  return groups;
}

/** Groups in /apis order (a Map keeps insertion order), each with its versions. */
function legacyOrder(items: readonly Ranked[]): Map<string, [Ranked, ...Ranked[]]> {
  return groupByName(
    [...items].sort((a, b) =>
      a.groupPriority !== b.groupPriority
        ? b.groupPriority - a.groupPriority
        : byString(`${a.version}.${a.group}`, `${b.version}.${b.group}`),
    ),
  );
}

function localGroupVersions(list: APIGroupList): { group: string; version: string }[] {
  return list.groups.flatMap((g) => g.versions.map((v) => ({ group: g.name, version: v.version })));
}

/** GET /apis: the server's groups and the aggregated ones, in APIService order. */
export function mergeApiGroupList(local: APIGroupList, remote: readonly RemoteGroupVersion[], priorityOf: PriorityOf): APIGroupList {
  const groups = [...legacyOrder(ranked(localGroupVersions(local), remote, priorityOf))].map(([group, versions]) =>
    groupEntry(group, versions),
  );
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** GET /apis/<group>: undefined when neither the server nor an APIService serves the group. */
export function mergeApiGroup(
  local: APIGroup | undefined,
  group: string,
  remote: readonly RemoteGroupVersion[],
  priorityOf: PriorityOf,
): APIGroup | undefined {
  const own = local === undefined ? [] : local.versions.map((v) => ({ group, version: v.version }));
  const versions = groupByName(
    ranked(
      own,
      remote.filter((r) => r.group === group),
      priorityOf,
    ),
  ).get(group);
  if (versions === undefined) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, versions) };
}

/**
 * An APIResourceList as aggregated-discovery resources (endpoints.ConvertGroupVersionIntoToDiscovery):
 * "<parent>/<sub>" entries become subresources of their parent.
 */
export function resourceListToDiscovery(list: APIResourceList): APIResourceDiscovery[] {
  const parents = new Map<string, APIResourceDiscovery>();
  for (const r of list.resources) {
    if (r.name.includes('/')) continue;
    parents.set(r.name, {
      resource: r.name,
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: [...r.verbs],
      ...(r.shortNames !== undefined && r.shortNames.length > 0 ? { shortNames: [...r.shortNames] } : {}),
      ...(r.categories !== undefined && r.categories.length > 0 ? { categories: [...r.categories] } : {}),
    });
  }
  for (const r of list.resources) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parent = parents.get(r.name.slice(0, slash));
    if (parent === undefined) continue;
    const sub = {
      subresource: r.name.slice(slash + 1),
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      verbs: [...r.verbs],
    };
    parent.subresources = [...(parent.subresources ?? []), sub];
  }
  return [...parents.values()];
}

function remoteVersion(r: RemoteGroupVersion): APIVersionDiscovery {
  if (r.resources === undefined) return { version: r.version, freshness: 'Stale' };
  return { version: r.version, resources: resourceListToDiscovery(r.resources), freshness: 'Current' };
}

/** The /apis aggregated document (APIGroupDiscoveryList) with the aggregated group-versions merged in. */
export function mergeAggregatedDiscovery(
  local: APIGroupDiscoveryList,
  remote: readonly RemoteGroupVersion[],
  priorityOf: PriorityOf,
): APIGroupDiscoveryList {
  const versionDocs = new Map<string, APIVersionDiscovery>();
  for (const item of local.items) for (const v of item.versions) versionDocs.set(`${item.metadata.name ?? ''}/${v.version}`, v);
  for (const r of remote) versionDocs.set(`${r.group}/${r.version}`, remoteVersion(r));
  const localGVs = local.items.flatMap((item) => item.versions.map((v) => ({ group: item.metadata.name ?? '', version: v.version })));
  const groups = [...groupByName(ranked(localGVs, remote, priorityOf))].map(([group, versions]) => ({
    group,
    versions,
    priority: Math.max(...versions.map((v) => v.groupPriority)),
  }));
  groups.sort((a, b) => (a.priority !== b.priority ? b.priority - a.priority : byString(a.group, b.group)));
  const items: APIGroupDiscovery[] = groups.map(({ group, versions }) => ({
    metadata: group === '' ? { creationTimestamp: null } : { name: group, creationTimestamp: null },
    versions: [...versions]
      .sort(byVersionPreference)
      .map((v) => versionDocs.get(`${group}/${v.version}`) ?? { version: v.version, freshness: 'Stale' }),
  }));
  return { ...local, items };
}
