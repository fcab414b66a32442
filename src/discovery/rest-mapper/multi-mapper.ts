/**
 * The union of the per-group-version mappers (apimachinery's MultiRESTMapper): candidates from every
 * mapper in discovery order, duplicates dropped, and the "no match" errors raised over the whole union.
 */

import { NoKindMatchError, NoResourceMatchError } from './errors.js';
import { formatGroupVersionResource } from './format.js';
import { type CoercedResource, type GroupVersionMapper, INTERNAL_VERSION } from './group-version-mapper.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource, PartialResource, RestMapping } from './types.js';

/** R7.6: resource names are matched in lower case and the internal version means "any version". */
export function coerceResource(partial: PartialResource): CoercedResource {
  const version = partial.version ?? '';
  return {
    group: partial.group ?? '',
    version: version === INTERNAL_VERSION ? '' : version,
    resource: partial.resource.toLowerCase(),
  };
}

function sameResource(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

function sameKind(a: GroupVersionKind, b: GroupVersionKind): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

function appendUnique<T>(into: T[], items: readonly T[], same: (a: T, b: T) => boolean): void {
  for (const item of items) if (!into.some((existing) => same(existing, item))) into.push(item);
}

function requireResource(mappers: readonly GroupVersionMapper[], coerced: CoercedResource): void {
  if (mappers.length > 0 && coerced.resource === '') {
    throw new Error(`a resource must be present, got: ${formatGroupVersionResource(coerced)}`);
  }
}

export function unionResourcesFor(mappers: readonly GroupVersionMapper[], partial: PartialResource): GroupVersionResource[] {
  const coerced = coerceResource(partial);
  requireResource(mappers, coerced);
  const all: GroupVersionResource[] = [];
  for (const mapper of mappers) appendUnique(all, mapper.resourcesFor(coerced), sameResource);
  if (all.length === 0) throw new NoResourceMatchError(partial);
  return all;
}

export function unionKindsFor(mappers: readonly GroupVersionMapper[], partial: PartialResource): GroupVersionKind[] {
  const coerced = coerceResource(partial);
  requireResource(mappers, coerced);
  const all: GroupVersionKind[] = [];
  for (const mapper of mappers) appendUnique(all, mapper.kindsFor(coerced), sameKind);
  if (all.length === 0) throw new NoResourceMatchError(partial);
  return all;
}

export function unionRestMappings(
  mappers: readonly GroupVersionMapper[],
  groupKind: GroupKind,
  versions: readonly string[],
): RestMapping[] {
  const all = mappers.flatMap((mapper) => mapper.restMappings(groupKind, versions));
  if (all.length === 0) throw new NoKindMatchError(groupKind, versions);
  return all;
}
