/** kubectl's category expansion from discovery (client-go restmapper discoveryCategoryExpander, R7.14). */

import type { ResourceInfo } from '../../api/resource-info.js';
import { discoveredGroupVersions } from './discovery-order.js';
import type { GroupResource } from './types.js';

/**
 * The group/resources whose discovery entry lists the category, in discovery order, or undefined when no
 * resource does (kubectl then treats the argument as a resource name). A resource served in several
 * versions is listed once, as kubectl de-duplicates the expanded resource list.
 */
export function expandCategory(resources: readonly ResourceInfo[], category: string): readonly GroupResource[] | undefined {
  const expanded: GroupResource[] = [];
  for (const { group, resources: served } of discoveredGroupVersions(resources)) {
    for (const info of served) {
      if (!info.categories.includes(category)) continue;
      if (expanded.some((entry) => entry.group === group && entry.resource === info.plural)) continue;
      expanded.push({ group, resource: info.plural });
    }
  }
  return expanded.length > 0 ? expanded : undefined;
}
