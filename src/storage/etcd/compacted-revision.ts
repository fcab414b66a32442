/**
 * etcd keeps its compact revision to itself: no RPC reports it, but every read below it fails. So the oldest
 * readable revision is found by bisection between the last one known (it only grows, and any server sharing
 * the etcd may compact) and the current revision (always readable), costing log2 of that distance in reads.
 */
export class CompactedRevisionTracker {
  #known = 1;

  /** A lower bound of the compact revision; exact right after our own compact() or a compaction notice. */
  get known(): number {
    return this.#known;
  }

  observe(revision: number): void {
    if (revision > this.#known) this.#known = revision;
  }

  async find(currentRevision: number, isReadable: (revision: number) => Promise<boolean>): Promise<number> {
    let low = this.#known;
    if (low >= currentRevision || (await isReadable(low))) return low;
    // Invariant: low is unreadable, high is readable.
    let high = currentRevision;
    while (high - low > 1) {
      const middle = low + Math.floor((high - low) / 2);
      if (await isReadable(middle)) high = middle;
      else low = middle;
    }
    this.observe(high);
    return high;
  }
}
