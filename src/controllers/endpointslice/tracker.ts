import type { KubeObject } from '../../api/types.js';
import { objectKeyOf } from '../../cache/object-key.js';
import { SERVICE_NAME_LABEL } from './slices.js';

/** A slice this controller deleted, until the informer reports it gone. */
const DELETION_EXPECTED = -1;

const serviceKeyOf = (slice: KubeObject): string =>
  objectKeyOf(slice.metadata.namespace, slice.metadata.labels?.[SERVICE_NAME_LABEL] ?? '');
const generationOf = (slice: KubeObject): number => slice.metadata.generation ?? 0;

/**
 * EndpointSliceTracker: the generation of every slice this controller last wrote, per Service. The informer lags
 * behind the controller's writes; a sync that saw an older slice would write it again from stale data, so it is
 * refused until the cache caught up, and the informer's echoes of the controller's own writes wake nothing.
 */
export class EndpointSliceTracker {
  private readonly byService = new Map<string, Map<string, number>>();

  private generations(slice: KubeObject): Map<string, number> | undefined {
    return this.byService.get(serviceKeyOf(slice));
  }

  has(slice: KubeObject): boolean {
    return this.generations(slice)?.has(slice.metadata.uid ?? '') ?? false;
  }

  /** Whether a change the informer reports is news: a slice not written by us, or newer than our write. */
  shouldSync(slice: KubeObject): boolean {
    const known = this.generations(slice)?.get(slice.metadata.uid ?? '');
    return known === undefined || generationOf(slice) > known;
  }

  /** StaleSlices: the cache still shows an older generation, a slice we deleted, or lacks one we wrote. */
  staleSlices(serviceKey: string, slices: readonly KubeObject[]): boolean {
    const known = this.byService.get(serviceKey);
    if (known === undefined) return false;
    const seen = new Set<string>();
    for (const slice of slices) {
      const uid = slice.metadata.uid ?? '';
      seen.add(uid);
      const generation = known.get(uid);
      if (generation !== undefined && (generation === DELETION_EXPECTED || generation > generationOf(slice))) return true;
    }
    for (const [uid, generation] of known) if (generation !== DELETION_EXPECTED && !seen.has(uid)) return true;
    return false;
  }

  update(slice: KubeObject): void {
    const key = serviceKeyOf(slice);
    let known = this.byService.get(key);
    if (known === undefined) {
      known = new Map();
      this.byService.set(key, known);
    }
    known.set(slice.metadata.uid ?? '', generationOf(slice));
  }

  expectDeletion(slice: KubeObject): void {
    const key = serviceKeyOf(slice);
    let known = this.byService.get(key);
    if (known === undefined) {
      known = new Map();
      this.byService.set(key, known);
    }
    known.set(slice.metadata.uid ?? '', DELETION_EXPECTED);
  }

  /** A deletion reported by the informer: false when it was ours (nothing to do), true when someone else's. */
  handleDeletion(slice: KubeObject): boolean {
    const known = this.generations(slice);
    const uid = slice.metadata.uid ?? '';
    const generation = known?.get(uid);
    if (known === undefined || generation === undefined) return true;
    known.delete(uid);
    return generation !== DELETION_EXPECTED;
  }

  deleteService(serviceKey: string): void {
    this.byService.delete(serviceKey);
  }
}
