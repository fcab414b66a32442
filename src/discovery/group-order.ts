/**
 * Order of API groups and of versions within a group, as kube-apiserver v1.32 lists them.
 *
 * Built-in group-versions carry the APIService priorities kube-apiserver registers for them
 * (pkg/controlplane/apiserver/aggregator.go DefaultGenericAPIServicePriorities merged with
 * cmd/kube-apiserver/app/aggregator.go apiVersionPriorities). Any other group-version is a custom
 * resource group, which the CRD registration controller registers with groupPriorityMinimum 1000 and
 * versionPriority 100.
 */

import type { ResourceInfo } from '../api/resource-info.js';
import { compareKubeAwareVersions } from './kube-version.js';

interface Priority {
  readonly group: number;
  readonly version: number;
}

/**
 * apiregistration.k8s.io has no APIService; the aggregator lists it first in /apis and gives it
 * priority 20001 (above the 20000 maximum) in aggregated discovery for the same effect.
 */
const BUILTIN_PRIORITIES: ReadonlyMap<string, Priority> = new Map<string, Priority>([
  ['apiregistration.k8s.io/v1', { group: 20001, version: 15 }],
  ['/v1', { group: 18000, version: 1 }],
  ['apps/v1', { group: 17800, version: 15 }],
  ['events.k8s.io/v1', { group: 17750, version: 15 }],
  ['authentication.k8s.io/v1', { group: 17700, version: 15 }],
  ['authorization.k8s.io/v1', { group: 17600, version: 15 }],
  ['autoscaling/v2', { group: 17500, version: 30 }],
  ['autoscaling/v1', { group: 17500, version: 15 }],
  ['batch/v1', { group: 17400, version: 15 }],
  ['certificates.k8s.io/v1', { group: 17300, version: 15 }],
  ['networking.k8s.io/v1', { group: 17200, version: 15 }],
  ['policy/v1', { group: 17100, version: 15 }],
  ['rbac.authorization.k8s.io/v1', { group: 17000, version: 15 }],
  ['storage.k8s.io/v1', { group: 16800, version: 15 }],
  ['admissionregistration.k8s.io/v1', { group: 16700, version: 15 }],
  ['apiextensions.k8s.io/v1', { group: 16700, version: 15 }],
  ['scheduling.k8s.io/v1', { group: 16600, version: 15 }],
  ['coordination.k8s.io/v1', { group: 16500, version: 15 }],
  ['node.k8s.io/v1', { group: 16300, version: 15 }],
  ['discovery.k8s.io/v1', { group: 16200, version: 15 }],
  ['flowcontrol.apiserver.k8s.io/v1', { group: 16100, version: 21 }],
]);

const CUSTOM_RESOURCE_PRIORITY: Priority = { group: 1000, version: 100 };

export function priorityOf(group: string, version: string): Priority {
  return BUILTIN_PRIORITIES.get(`${group}/${version}`) ?? CUSTOM_RESOURCE_PRIORITY;
}

export interface GroupVersions {
  readonly group: string;
  /** Most preferred first. */
  readonly versions: readonly string[];
}

function collectVersions(resources: readonly ResourceInfo[]): Map<string, Set<string>> {
  const byGroup = new Map<string, Set<string>>();
  for (const info of resources) {
    const versions = byGroup.get(info.group) ?? new Set<string>();
    versions.add(info.version);
    byGroup.set(info.group, versions);
  }
  return byGroup;
}

function byVersionPreference(group: string): (a: string, b: string) => number {
  return (a, b) => {
    const pa = priorityOf(group, a).version;
    const pb = priorityOf(group, b).version;
    if (pa !== pb) return pb - pa;
    return compareKubeAwareVersions(b, a);
  };
}

function byString(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Groups in the order of the legacy /apis document: the aggregator sorts APIServices by
 * groupPriorityMinimum (highest first) and then by APIService name ("<version>.<group>"), and a group
 * takes the position of its first APIService. The core group is not part of /apis.
 */
export function groupsInLegacyOrder(resources: readonly ResourceInfo[]): GroupVersions[] {
  const apiServices: { group: string; version: string; priority: number; name: string }[] = [];
  for (const [group, versions] of collectVersions(resources)) {
    if (group === '') continue;
    for (const version of versions) {
      apiServices.push({ group, version, priority: priorityOf(group, version).group, name: `${version}.${group}` });
    }
  }
  apiServices.sort((a, b) => (a.priority !== b.priority ? b.priority - a.priority : byString(a.name, b.name)));
  const order: string[] = [];
  const versionsByGroup = new Map<string, string[]>();
  for (const service of apiServices) {
    const versions = versionsByGroup.get(service.group);
    if (versions === undefined) {
      order.push(service.group);
      versionsByGroup.set(service.group, [service.version]);
    } else {
      versions.push(service.version);
    }
  }
  return order.map((group) => ({
    group,
    versions: (versionsByGroup.get(group) ?? []).sort(byVersionPreference(group)),
  }));
}

/**
 * Groups in the order of aggregated discovery: by the highest group priority among the group's
 * versions (highest first), ties broken by group name. Includes the core group when present.
 */
export function groupsInAggregatedOrder(resources: readonly ResourceInfo[]): GroupVersions[] {
  const groups = [...collectVersions(resources)].map(([group, versions]) => ({
    group,
    versions: [...versions].sort(byVersionPreference(group)),
    priority: Math.max(...[...versions].map((version) => priorityOf(group, version).group)),
  }));
  groups.sort((a, b) => (a.priority !== b.priority ? b.priority - a.priority : byString(a.group, b.group)));
  return groups.map(({ group, versions }) => ({ group, versions }));
}
