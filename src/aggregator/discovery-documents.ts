import type { APIResourceList } from '../discovery/types.js';

/**
 * The APIResourceList each APIService's backend served at its last successful availability check. A failed check
 * drops it: kube-aggregator then lists the group-version with no resources, marked Stale.
 */
export class DiscoveryDocuments {
  private readonly lists = new Map<string, APIResourceList>();
  private readonly listeners = new Set<() => void>();

  get(apiService: string): APIResourceList | undefined {
    return this.lists.get(apiService);
  }

  set(apiService: string, list: APIResourceList): void {
    const previous = this.lists.get(apiService);
    this.lists.set(apiService, list);
    if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(list)) this.changed();
  }

  forget(apiService: string): void {
    if (this.lists.delete(apiService)) this.changed();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
