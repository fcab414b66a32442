import type { Backend } from '../../storage/backend.js';
import { KeyNotFoundError, RevisionConflictError } from '../../storage/errors.js';
import { decodeObject } from '../codec.js';
import { resourcePrefix } from '../keys.js';
import { entryParts } from './entry.js';
import { ARCHIVED_OBJECTS, CLUSTER_ARCHIVED_OBJECTS } from './resources.js';
import { entriesToPrune, type RetentionPolicy, type StoredEntry } from './retention.js';

/** Prunes the archive by age and size on a timer (issue 28); entries leave storage directly, unarchived. */
export class ArchivePruner {
  private readonly backend: Backend;
  private readonly policy: RetentionPolicy;
  private readonly clock: () => Date;
  private readonly intervalMs: number;
  private readonly log: (message: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(backend: Backend, policy: RetentionPolicy, clock: () => Date, intervalMs: number, log: (message: string) => void) {
    this.backend = backend;
    this.policy = policy;
    this.clock = clock;
    this.intervalMs = intervalMs;
    this.log = log;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running !== undefined) return;
      this.running = this.pruneOnce()
        .catch((err: unknown) => {
          this.log(`archive pruning failed: ${String(err)}`);
          return 0;
        })
        .finally(() => {
          this.running = undefined;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * One pass: removes what the policy no longer keeps; returns how many entries went. The archive may hold hundreds
   * of megabytes after a large cascade: it is scanned a page at a time keeping only keys and sizes, and the few
   * entries whose deletion time the age cut needs are read back one by one.
   */
  async pruneOnce(): Promise<number> {
    const [namespaced, cluster] = await Promise.all([
      this.storedEntries(resourcePrefix(ARCHIVED_OBJECTS)),
      this.storedEntries(resourcePrefix(CLUSTER_ARCHIVED_OBJECTS)),
    ]);
    const entries = [...namespaced, ...cluster].sort((a, b) => a.modRevision - b.modRevision);
    const deletedAt = async (entry: StoredEntry): Promise<number> => {
      const { kv } = await this.backend.get(entry.key);
      // Pruned meanwhile: as old as can be, and its delete finds nothing.
      return kv === undefined ? Number.NEGATIVE_INFINITY : Date.parse(entryParts(decodeObject(kv)).deletion.time);
    };
    const doomed = await entriesToPrune(entries, deletedAt, this.policy, this.clock().getTime());
    let pruned = 0;
    for (const entry of doomed) {
      try {
        await this.backend.delete(entry.key, entry.modRevision);
        pruned++;
      } catch (err) {
        if (!(err instanceof KeyNotFoundError || err instanceof RevisionConflictError)) throw err;
      }
    }
    return pruned;
  }

  /** Every entry under `prefix` as pruning sees it, read in pages at one revision. */
  private async storedEntries(prefix: string): Promise<StoredEntry[]> {
    const entries: StoredEntry[] = [];
    let revision: number | undefined;
    let startKey: string | undefined;
    for (;;) {
      const page = await this.backend.list(prefix, { limit: SCAN_PAGE, revision, startKey, countRemaining: false });
      revision ??= page.revision;
      for (const kv of page.kvs) entries.push({ key: kv.key, modRevision: kv.modRevision, size: kv.value.length });
      const last = page.kvs.at(-1);
      if (!page.more || last === undefined) return entries;
      startKey = `${last.key}\u0000`;
    }
  }
}

/** Archive entries read per storage list while pruning. */
const SCAN_PAGE = 1000;
