/**
 * client-go's NewDiscoveryRESTMapper over Cascade's resource descriptions (R7.1–R7.5, R7.9–R7.11): one
 * mapper per served group-version, unioned in discovery order, with priority patterns choosing among
 * candidates.
 */

import type { ResourceInfo } from '../../api/resource-info.js';
import { discoveryOrder } from './discovery-order.js';
import { AmbiguousKindError, AmbiguousResourceError } from './errors.js';
import { GroupVersionMapper } from './group-version-mapper.js';
import { unionKindsFor, unionResourcesFor, unionRestMappings } from './multi-mapper.js';
import { discoveryPriorities, narrowByPriority, type PriorityPattern } from './priority.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource, PartialResource, RestMapper, RestMapping } from './types.js';

const groupVersionOfMapping = (mapping: RestMapping): GroupVersionKind => mapping.groupVersionKind;
const identity = <T>(value: T): T => value;

class DiscoveryRestMapper implements RestMapper {
  private readonly mappers: readonly GroupVersionMapper[];
  private readonly priorities: readonly PriorityPattern[];

  constructor(mappers: readonly GroupVersionMapper[], priorities: readonly PriorityPattern[]) {
    this.mappers = mappers;
    this.priorities = priorities;
  }

  resourcesFor(partial: PartialResource): GroupVersionResource[] {
    return unionResourcesFor(this.mappers, partial);
  }

  kindsFor(partial: PartialResource): GroupVersionKind[] {
    return unionKindsFor(this.mappers, partial);
  }

  restMappings(groupKind: GroupKind, ...versions: string[]): RestMapping[] {
    return unionRestMappings(this.mappers, groupKind, versions);
  }

  resourceFor(partial: PartialResource): GroupVersionResource {
    const candidates = this.resourcesFor(partial);
    if (candidates.length === 1 && candidates[0] !== undefined) return candidates[0];
    const narrowed = narrowByPriority(candidates, this.priorities, identity);
    if ('picked' in narrowed) return narrowed.picked;
    throw new AmbiguousResourceError(partial, candidates, []);
  }

  kindFor(partial: PartialResource): GroupVersionKind {
    const candidates = this.kindsFor(partial);
    if (candidates.length === 1 && candidates[0] !== undefined) return candidates[0];
    const narrowed = narrowByPriority(candidates, this.priorities, identity);
    if ('picked' in narrowed) return narrowed.picked;
    // Kubernetes reports an ambiguous kind lookup by resource as an AmbiguousResourceError.
    throw new AmbiguousResourceError(partial, [], candidates);
  }

  restMapping(groupKind: GroupKind, ...versions: string[]): RestMapping {
    const candidates = this.restMappings(groupKind, ...versions);
    // Versions the caller asks for outrank discovery preference, in the order given.
    const requested = versions.map((version) => ({ group: groupKind.group, version }));
    const narrowed = narrowByPriority(candidates, [...requested, ...this.priorities], groupVersionOfMapping);
    if ('picked' in narrowed) return narrowed.picked;
    if (narrowed.remaining.length === 1 && narrowed.remaining[0] !== undefined) return narrowed.remaining[0];
    throw new AmbiguousKindError({ group: groupKind.group, version: '', kind: groupKind.kind }, [], candidates.map(groupVersionOfMapping));
  }
}

/** Builds the mapper kubectl and controllers would build from discovery of these resources. */
export function createRestMapper(resources: readonly ResourceInfo[]): RestMapper {
  const groups = discoveryOrder(resources);
  const mappers = groups.flatMap(({ group, versions }) =>
    versions.map(({ version, resources: served }) => new GroupVersionMapper(group, version, served)),
  );
  const priorities = discoveryPriorities(
    groups.map(({ group, versions }) => ({ group, versions: versions.map(({ version }) => version) })),
  );
  return new DiscoveryRestMapper(mappers, priorities);
}
