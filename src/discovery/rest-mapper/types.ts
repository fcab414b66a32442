/** Shapes shared by the REST mapper modules (apimachinery's schema and meta types, in TypeScript). */

import type { GroupVersionKind, GroupVersionResource } from '../../api/types.js';

export type { GroupVersionKind, GroupVersionResource };

/** A resource as typed by a user: group and version may be missing (empty means missing). */
export interface PartialResource {
  readonly group?: string;
  readonly version?: string;
  readonly resource: string;
}

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export type RestScope = 'namespace' | 'root';

/** How to reach a kind over REST: the resource path segment, the kind served there and its scope. */
export interface RestMapping {
  readonly resource: GroupVersionResource;
  readonly groupVersionKind: GroupVersionKind;
  readonly scope: RestScope;
}

/** apimachinery's meta.RESTMapper, without the deprecated ResourceSingularizer. */
export interface RestMapper {
  /** The single best resource for a partial resource; throws NoResourceMatchError or AmbiguousResourceError. */
  resourceFor(partial: PartialResource): GroupVersionResource;
  /** Every matching resource, in discovery order; throws NoResourceMatchError when there is none. */
  resourcesFor(partial: PartialResource): GroupVersionResource[];
  /** The single best kind for a partial resource; throws NoResourceMatchError or AmbiguousResourceError. */
  kindFor(partial: PartialResource): GroupVersionKind;
  /** Every matching kind, in discovery order; throws NoResourceMatchError when there is none. */
  kindsFor(partial: PartialResource): GroupVersionKind[];
  /** The mapping for a group/kind in the first of `versions` served (any version when none is given). */
  restMapping(groupKind: GroupKind, ...versions: string[]): RestMapping;
  /** Every mapping for a group/kind, in discovery order; throws NoKindMatchError when there is none. */
  restMappings(groupKind: GroupKind, ...versions: string[]): RestMapping[];
}
