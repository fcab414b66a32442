import type { ResourceInfo, Verb } from '../api/resource-info.js';

/** The resources the garbage collector ignores (R4.5): their ownerReferences never make them dependents. */
const GC_IGNORED = new Set(['events', 'events.events.k8s.io']);

function resourceKey(info: Pick<ResourceInfo, 'plural' | 'group'>): string {
  return info.group === '' ? info.plural : `${info.plural}.${info.group}`;
}

/**
 * Each resource once, in the first version discovery lists for it (R8.17: the preferred version), keeping those
 * that allow every verb given. Objects are the same whichever version serves them, so one is enough.
 */
export function preferredResources(resources: readonly ResourceInfo[], verbs: readonly Verb[]): ResourceInfo[] {
  const chosen = new Map<string, ResourceInfo>();
  for (const info of resources) {
    const key = resourceKey(info);
    if (chosen.has(key) || !verbs.every((verb) => info.verbs.includes(verb))) continue;
    chosen.set(key, info);
  }
  return [...chosen.values()];
}

/** Whether the garbage collector watches this resource (R4.5: delete, list and watch, events excluded). */
export function watchedByGarbageCollector(info: ResourceInfo): boolean {
  return !GC_IGNORED.has(resourceKey(info)) && (['delete', 'list', 'watch'] as const).every((verb) => info.verbs.includes(verb));
}

export { resourceKey };
