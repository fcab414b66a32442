/**
 * Served resources in the order a discovery client sees them: the core group (/api) first, then the
 * groups of /apis in aggregated discovery order, each group's versions most preferred first, and each
 * version's resources sorted by name as the discovery documents list them.
 */

import type { ResourceInfo } from '../../api/resource-info.js';
import { groupsInAggregatedOrder } from '../group-order.js';

export interface DiscoveredVersion {
  readonly version: string;
  readonly resources: readonly ResourceInfo[];
}

export interface DiscoveredGroup {
  readonly group: string;
  /** Most preferred first: the first entry is the group's preferred version. */
  readonly versions: readonly DiscoveredVersion[];
}

function byPlural(a: ResourceInfo, b: ResourceInfo): number {
  if (a.plural === b.plural) return 0;
  return a.plural < b.plural ? -1 : 1;
}

export function discoveryOrder(resources: readonly ResourceInfo[]): DiscoveredGroup[] {
  const groups = groupsInAggregatedOrder(resources);
  const core = groups.filter(({ group }) => group === '');
  const named = groups.filter(({ group }) => group !== '');
  return [...core, ...named].map(({ group, versions }) => ({
    group,
    versions: versions.map((version) => ({
      version,
      resources: resources.filter((info) => info.group === group && info.version === version).sort(byPlural),
    })),
  }));
}

/** Each served group-version with its resources, flattened in discovery order. */
export function discoveredGroupVersions(
  resources: readonly ResourceInfo[],
): { group: string; version: string; resources: readonly ResourceInfo[] }[] {
  return discoveryOrder(resources).flatMap(({ group, versions }) =>
    versions.map((entry) => ({ group, version: entry.version, resources: entry.resources })),
  );
}
