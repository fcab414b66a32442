/**
 * A REST mapper over an asynchronous discovery source (client-go's DeferredDiscoveryRESTMapper over a
 * cached discovery client, R7.15–R7.18), built on first use and rebuilt after a lookup misses.
 *
 * Unlike client-go (debt D10) a miss always may refresh, so new CRDs are found by long-running callers,
 * but discovery is fetched at most once per `minRefreshIntervalMs`, so a typo cannot hot-loop it; a
 * failed load is retried after the same interval instead of being cached forever (R7.18); and concurrent
 * callers share one in-flight fetch.
 */

import type { ResourceInfo } from '../../api/resource-info.js';
import { createRestMapper } from './create.js';
import { isNoMatchError } from './errors.js';
import type { MappingSource } from './mapping-for-argument.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource, PartialResource, RestMapping } from './types.js';

export type DiscoverySource = () => Promise<readonly ResourceInfo[]>;

export interface CachedRestMapperOptions {
  /** Least time between two discovery fetches caused by misses; default 1000 ms. */
  readonly minRefreshIntervalMs?: number;
  /** Clock in milliseconds, injectable for tests; default Date.now. */
  readonly now?: () => number;
}

export interface CachedRestMapper {
  resourceFor(partial: PartialResource): Promise<GroupVersionResource>;
  resourcesFor(partial: PartialResource): Promise<GroupVersionResource[]>;
  kindFor(partial: PartialResource): Promise<GroupVersionKind>;
  kindsFor(partial: PartialResource): Promise<GroupVersionKind[]>;
  restMapping(groupKind: GroupKind, ...versions: string[]): Promise<RestMapping>;
  restMappings(groupKind: GroupKind, ...versions: string[]): Promise<RestMapping[]>;
  /**
   * Runs a lookup against the current discovery data; when it throws an error `shouldRefresh` accepts
   * (by default a no-match error), refreshes discovery if the rate limit allows and runs it once more.
   */
  withRefresh<T>(lookup: (source: MappingSource) => T, shouldRefresh?: (err: unknown) => boolean): Promise<T>;
  /** Drops the cached discovery data: the next lookup fetches it again, whatever the rate limit. */
  invalidate(): void;
}

export const DEFAULT_MIN_REFRESH_INTERVAL_MS = 1000;

interface Snapshot {
  readonly source: MappingSource;
  /** Increases with every successful fetch, so a caller can tell whether data changed under it. */
  readonly generation: number;
}

class DeferredRestMapper implements CachedRestMapper {
  private readonly discover: DiscoverySource;
  private readonly minRefreshIntervalMs: number;
  private readonly now: () => number;
  private snapshot: Snapshot | undefined;
  private inFlight: Promise<Snapshot> | undefined;
  private lastFetchAt = Number.NEGATIVE_INFINITY;
  private lastFailure: unknown;
  private hasFailed = false;
  private generation = 0;

  constructor(discover: DiscoverySource, options: CachedRestMapperOptions) {
    this.discover = discover;
    this.minRefreshIntervalMs = options.minRefreshIntervalMs ?? DEFAULT_MIN_REFRESH_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  private rateLimited(): boolean {
    return this.now() - this.lastFetchAt < this.minRefreshIntervalMs;
  }

  private async load(): Promise<Snapshot> {
    try {
      const resources = await this.discover();
      this.generation += 1;
      const snapshot = { source: { mapper: createRestMapper(resources), resources }, generation: this.generation };
      this.snapshot = snapshot;
      this.hasFailed = false;
      this.lastFailure = undefined;
      return snapshot;
    } catch (err) {
      this.hasFailed = true;
      this.lastFailure = err;
      throw err;
    }
  }

  private fetch(): Promise<Snapshot> {
    if (this.inFlight !== undefined) return this.inFlight;
    this.lastFetchAt = this.now();
    const fetching = this.load();
    this.inFlight = fetching;
    const settle = (): void => {
      if (this.inFlight === fetching) this.inFlight = undefined;
    };
    fetching.then(settle, settle);
    return fetching;
  }

  private async current(): Promise<Snapshot> {
    if (this.snapshot !== undefined) return this.snapshot;
    if (this.inFlight !== undefined) return this.inFlight;
    if (this.hasFailed && this.rateLimited()) throw this.lastFailure;
    return this.fetch();
  }

  /** Newer data after a miss on `seen`, or undefined when the rate limit says to keep the current data. */
  private async refreshedAfter(seen: Snapshot): Promise<Snapshot | undefined> {
    if (this.snapshot !== undefined && this.snapshot.generation !== seen.generation) return this.snapshot;
    if (this.inFlight !== undefined) return this.inFlight;
    if (this.rateLimited()) return undefined;
    return this.fetch();
  }

  async withRefresh<T>(lookup: (source: MappingSource) => T, shouldRefresh: (err: unknown) => boolean = isNoMatchError): Promise<T> {
    const seen = await this.current();
    try {
      return lookup(seen.source);
    } catch (err) {
      if (!shouldRefresh(err)) throw err;
      const fresh = await this.refreshedAfter(seen);
      if (fresh === undefined) throw err;
      return lookup(fresh.source);
    }
  }

  invalidate(): void {
    this.snapshot = undefined;
    this.hasFailed = false;
    this.lastFailure = undefined;
  }

  resourceFor(partial: PartialResource): Promise<GroupVersionResource> {
    return this.withRefresh(({ mapper }) => mapper.resourceFor(partial));
  }

  resourcesFor(partial: PartialResource): Promise<GroupVersionResource[]> {
    return this.withRefresh(({ mapper }) => mapper.resourcesFor(partial));
  }

  kindFor(partial: PartialResource): Promise<GroupVersionKind> {
    return this.withRefresh(({ mapper }) => mapper.kindFor(partial));
  }

  kindsFor(partial: PartialResource): Promise<GroupVersionKind[]> {
    return this.withRefresh(({ mapper }) => mapper.kindsFor(partial));
  }

  restMapping(groupKind: GroupKind, ...versions: string[]): Promise<RestMapping> {
    return this.withRefresh(({ mapper }) => mapper.restMapping(groupKind, ...versions));
  }

  restMappings(groupKind: GroupKind, ...versions: string[]): Promise<RestMapping[]> {
    return this.withRefresh(({ mapper }) => mapper.restMappings(groupKind, ...versions));
  }
}

export function createCachedRestMapper(discover: DiscoverySource, options: CachedRestMapperOptions = {}): CachedRestMapper {
  return new DeferredRestMapper(discover, options);
}
