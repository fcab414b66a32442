/**
 * The mapper of one served group-version (apimachinery's DefaultRESTMapper with a single default
 * group-version, as client-go's discovery mapper builds one per group-version). It answers with every
 * candidate; choosing among group-versions is left to the priority mapper.
 */

import type { ResourceInfo } from '../../api/resource-info.js';
import { guessKindToResource } from './kind-to-resource.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource, RestMapping, RestScope } from './types.js';

/** A partial resource after coercion (R7.6): lower-case resource, `__internal` version dropped. */
export interface CoercedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** runtime.APIVersionInternal, which lookups treat as "no version". */
export const INTERNAL_VERSION = '__internal';

function byName(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

export class GroupVersionMapper {
  readonly group: string;
  readonly version: string;
  /** Resource name (plural or singular) → kind. */
  private readonly resourceToKind = new Map<string, string>();
  /** Kind → plural resource. */
  private readonly kindToPlural = new Map<string, string>();
  private readonly kindToScope = new Map<string, RestScope>();
  /** Plural resource → singular resource. */
  private readonly pluralToSingular = new Map<string, string>();

  constructor(group: string, version: string, resources: readonly ResourceInfo[]) {
    this.group = group;
    this.version = version;
    for (const info of resources) {
      // Subresources are not mapped (R7.2); ResourceInfo lists them apart, but a name with "/" would be one.
      if (info.plural.includes('/')) continue;
      const scope: RestScope = info.namespaced ? 'namespace' : 'root';
      const singular = info.singular === '' ? guessKindToResource(info.kind).singular : info.singular;
      this.addSpecific(info.kind.toLowerCase(), info.plural, singular, scope);
      this.addSpecific(info.kind, info.plural, singular, scope);
      this.addGuessed(`${info.kind}List`, scope);
    }
    this.addGuessed('List', 'root');
  }

  private addSpecific(kind: string, plural: string, singular: string, scope: RestScope): void {
    this.pluralToSingular.set(plural, singular);
    this.resourceToKind.set(singular, kind);
    this.resourceToKind.set(plural, kind);
    this.kindToPlural.set(kind, plural);
    this.kindToScope.set(kind, scope);
  }

  private addGuessed(kind: string, scope: RestScope): void {
    const { plural, singular } = guessKindToResource(kind);
    this.addSpecific(kind, plural, singular, scope);
  }

  private gvr(resource: string): GroupVersionResource {
    return { group: this.group, version: this.version, resource };
  }

  private gvk(kind: string): GroupVersionKind {
    return { group: this.group, version: this.version, kind };
  }

  /**
   * Whether the partial's group and version select this group-version (R7.7, R7.8). A group without a
   * version selects every group it prefixes ("deployments.app" reaches "apps"); an exact group is a prefix
   * of itself, so exact and prefix matches all come back and the priority mapper prefers the best group.
   */
  private selects(wanted: CoercedResource): boolean {
    if (wanted.version !== '' && wanted.version !== this.version) return false;
    if (wanted.group === '') return true;
    return wanted.version !== '' ? wanted.group === this.group : this.group.startsWith(wanted.group);
  }

  /** Plural resources whose plural or singular name is the partial's resource, sorted by name. */
  resourcesFor(wanted: CoercedResource): GroupVersionResource[] {
    if (!this.selects(wanted)) return [];
    const found: string[] = [];
    for (const [plural, singular] of this.pluralToSingular) {
      if (plural === wanted.resource || singular === wanted.resource) found.push(plural);
    }
    found.sort(byName);
    // A fully qualified lookup stops at its first hit in Kubernetes; take the resource's own plural name.
    if (wanted.group !== '' && wanted.version !== '' && found.length > 1) {
      return [this.gvr(found.includes(wanted.resource) ? wanted.resource : (found[0] ?? ''))];
    }
    return found.map((plural) => this.gvr(plural));
  }

  /** The kind registered under the partial's resource name, if any. */
  kindsFor(wanted: CoercedResource): GroupVersionKind[] {
    if (!this.selects(wanted)) return [];
    const kind = this.resourceToKind.get(wanted.resource);
    return kind === undefined ? [] : [this.gvk(kind)];
  }

  /**
   * Mappings for the group/kind: the first requested version this group-version serves it in, or with
   * no usable version requested, this group-version when it is of the kind's group.
   */
  restMappings(groupKind: GroupKind, versions: readonly string[]): RestMapping[] {
    if (groupKind.group !== this.group) return [];
    const requested = versions.filter((version) => version !== '' && version !== INTERNAL_VERSION);
    if (requested.length > 0 && !requested.includes(this.version)) return [];
    const plural = this.kindToPlural.get(groupKind.kind);
    const scope = this.kindToScope.get(groupKind.kind);
    if (plural === undefined || scope === undefined) return [];
    return [{ resource: this.gvr(plural), groupVersionKind: this.gvk(groupKind.kind), scope }];
  }
}
