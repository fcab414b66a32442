/**
 * kubectl's short-name expansion (client-go restmapper shortcutExpander, R7.13), applied to a partial
 * resource before it reaches the REST mapper.
 */

import type { ResourceInfo } from '../../api/resource-info.js';
import { discoveredGroupVersions } from './discovery-order.js';
import { goQuote } from '../../util/go-quote.js';
import { formatGroupResource } from './format.js';
import type { GroupResource, PartialResource } from './types.js';

export interface ShortcutExpansion {
  /** The partial resource to hand to the mapper. */
  readonly resource: PartialResource;
  /** `short name "<x>" could also match lower priority resource <res>` for every other resource claiming it. */
  readonly warnings: readonly string[];
}

interface Shortcut {
  readonly short: GroupResource;
  readonly long: GroupResource;
}

function shortcutsOf(resources: readonly ResourceInfo[]): Shortcut[] {
  return discoveredGroupVersions(resources).flatMap(({ group, resources: served }) =>
    served.flatMap((info) =>
      info.shortNames.map((shortName) => ({
        short: { group, resource: shortName },
        long: { group, resource: info.plural },
      })),
    ),
  );
}

function isExactName(resources: readonly ResourceInfo[], partial: PartialResource): boolean {
  const group = partial.group ?? '';
  return discoveredGroupVersions(resources).some(
    (entry) =>
      (group === '' || group === entry.group) &&
      entry.resources.some((info) => info.plural === partial.resource || info.singular === partial.resource),
  );
}

/**
 * Expands a short name to its resource. An exact plural or singular name (within the given group) is
 * kept as is; otherwise the first resource in discovery order declaring the short name wins, and each
 * other resource declaring it earns a warning. As in kubectl, a short-name hit keeps only group and
 * resource (the version is dropped). With a group and no hit, short names are matched by group prefix.
 * Names are compared as typed (kubectl does not lower-case before expanding).
 */
export function expandResourceShortcut(resources: readonly ResourceInfo[], partial: PartialResource): ShortcutExpansion {
  if (isExactName(resources, partial)) return { resource: partial, warnings: [] };

  const group = partial.group ?? '';
  const shortcuts = shortcutsOf(resources);
  let chosen: GroupResource | undefined;
  const warnings: string[] = [];
  const warned = new Set<string>();
  for (const { short, long } of shortcuts) {
    if (group !== '' && group !== short.group) continue;
    if (short.resource !== partial.resource) continue;
    if (chosen === undefined) {
      chosen = long;
      continue;
    }
    // The same group/resource served in several versions is not an ambiguity.
    if (long.group === chosen.group && long.resource === chosen.resource) continue;
    const name = formatGroupResource(long);
    if (warned.has(name)) continue;
    warned.add(name);
    warnings.push(`short name ${goQuote(partial.resource)} could also match lower priority resource ${name}`);
  }
  if (chosen !== undefined) return { resource: { group: chosen.group, resource: chosen.resource }, warnings };

  if (group === '') return { resource: partial, warnings };
  for (const { short, long } of shortcuts) {
    if (short.group.startsWith(group) && short.resource === partial.resource) {
      return { resource: { ...partial, group: long.group, resource: long.resource }, warnings };
    }
  }
  return { resource: partial, warnings };
}
