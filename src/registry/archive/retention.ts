/** How long and how much the archive keeps (--archive-retention, --archive-max-bytes). */
export interface RetentionPolicy {
  /** Entries deleted longer ago than this go. */
  readonly retentionMs: number;
  /** Beyond this many bytes of entries, the oldest go first. */
  readonly maxBytes: number;
}

/** One stored archive entry, as pruning sees it. */
export interface StoredEntry {
  readonly key: string;
  readonly modRevision: number;
  readonly size: number;
}

/**
 * The entries to prune, oldest first. Entries are written in deletion order, so revision order is age order:
 * `deletedAtMs(i)` is asked for O(log n) entries only (a binary search for the first one young enough), as
 * decoding every entry on each pass would cost as much as the archive is large. `entries` must be sorted by
 * modRevision.
 */
export async function entriesToPrune(
  entries: readonly StoredEntry[],
  deletedAtMs: (entry: StoredEntry) => number | Promise<number>,
  policy: RetentionPolicy,
  nowMs: number,
): Promise<StoredEntry[]> {
  const oldestKept = nowMs - policy.retentionMs;
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((await deletedAtMs(entries[mid] as StoredEntry)) < oldestKept) low = mid + 1;
    else high = mid;
  }
  let cut = low;
  let bytes = 0;
  for (let i = cut; i < entries.length; i++) bytes += (entries[i] as StoredEntry).size;
  while (bytes > policy.maxBytes && cut < entries.length) {
    bytes -= (entries[cut] as StoredEntry).size;
    cut++;
  }
  return entries.slice(0, cut);
}
