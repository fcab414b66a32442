/**
 * The REST mapper's errors, with the message texts of apimachinery pkg/api/meta/errors.go (R7.9–R7.12).
 */

import { goQuote } from '../../util/go-quote.js';
import { formatGoList, formatGroupVersion, formatGroupVersionKind, formatGroupVersionResource } from './format.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource, PartialResource } from './types.js';

function fullResource(partial: PartialResource): GroupVersionResource {
  return { group: partial.group ?? '', version: partial.version ?? '', resource: partial.resource };
}

function ambiguityMessage(subject: string, resources: readonly GroupVersionResource[], kinds: readonly GroupVersionKind[]): string {
  const resourceList = formatGoList(resources.map(formatGroupVersionResource));
  const kindList = formatGoList(kinds.map(formatGroupVersionKind));
  if (kinds.length > 0 && resources.length > 0) {
    return `${subject} matches multiple resources ${resourceList} and kinds ${kindList}`;
  }
  if (kinds.length > 0) return `${subject} matches multiple kinds ${kindList}`;
  if (resources.length > 0) return `${subject} matches multiple resources ${resourceList}`;
  return `${subject} matches multiple resources or kinds`;
}

/** A partial resource matched several resources or kinds and priority could not pick one. */
export class AmbiguousResourceError extends Error {
  readonly partialResource: GroupVersionResource;
  readonly matchingResources: readonly GroupVersionResource[];
  readonly matchingKinds: readonly GroupVersionKind[];

  constructor(partial: PartialResource, matchingResources: readonly GroupVersionResource[], matchingKinds: readonly GroupVersionKind[]) {
    const partialResource = fullResource(partial);
    super(ambiguityMessage(formatGroupVersionResource(partialResource), matchingResources, matchingKinds));
    this.name = 'AmbiguousResourceError';
    this.partialResource = partialResource;
    this.matchingResources = matchingResources;
    this.matchingKinds = matchingKinds;
  }
}

/** A group/kind is served in several versions and priority could not pick one. */
export class AmbiguousKindError extends Error {
  readonly partialKind: GroupVersionKind;
  readonly matchingResources: readonly GroupVersionResource[];
  readonly matchingKinds: readonly GroupVersionKind[];

  constructor(
    partialKind: GroupVersionKind,
    matchingResources: readonly GroupVersionResource[],
    matchingKinds: readonly GroupVersionKind[],
  ) {
    super(ambiguityMessage(formatGroupVersionKind(partialKind), matchingResources, matchingKinds));
    this.name = 'AmbiguousKindError';
    this.partialKind = partialKind;
    this.matchingResources = matchingResources;
    this.matchingKinds = matchingKinds;
  }
}

/** No served resource matches the partial resource (R7.10). */
export class NoResourceMatchError extends Error {
  readonly partialResource: GroupVersionResource;

  constructor(partial: PartialResource) {
    const partialResource = fullResource(partial);
    super(`no matches for ${formatGroupVersionResource(partialResource)}`);
    this.name = 'NoResourceMatchError';
    this.partialResource = partialResource;
  }
}

function noKindMatchMessage(groupKind: GroupKind, searchedVersions: readonly string[]): string {
  const searched = [...new Set(searchedVersions.map((version) => formatGroupVersion(groupKind.group, version)))].sort();
  const kind = goQuote(groupKind.kind);
  if (searched.length === 0) return `no matches for kind ${kind} in group ${goQuote(groupKind.group)}`;
  if (searched.length === 1) return `no matches for kind ${kind} in version ${goQuote(searched[0] ?? '')}`;
  return `no matches for kind ${kind} in versions ${formatGoList(searched.map(goQuote))}`;
}

/** No served version of the group holds the kind (R7.11). */
export class NoKindMatchError extends Error {
  readonly groupKind: GroupKind;
  /** The versions the search was restricted to, as requested. */
  readonly searchedVersions: readonly string[];

  constructor(groupKind: GroupKind, searchedVersions: readonly string[]) {
    super(noKindMatchMessage(groupKind, searchedVersions));
    this.name = 'NoKindMatchError';
    this.groupKind = { group: groupKind.group, kind: groupKind.kind };
    this.searchedVersions = [...searchedVersions];
  }
}

/** R7.12: callers treat both "no match" errors alike. */
export function isNoMatchError(err: unknown): err is NoResourceMatchError | NoKindMatchError {
  return err instanceof NoResourceMatchError || err instanceof NoKindMatchError;
}

export function isAmbiguousError(err: unknown): err is AmbiguousResourceError | AmbiguousKindError {
  return err instanceof AmbiguousResourceError || err instanceof AmbiguousKindError;
}
