import type { Backend, KeyValue } from '../../storage/backend.js';
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

  /** One pass: removes what the policy no longer keeps; returns how many entries went. */
  async pruneOnce(): Promise<number> {
    const [namespaced, cluster] = await Promise.all([
      this.backend.list(resourcePrefix(ARCHIVED_OBJECTS)),
      this.backend.list(resourcePrefix(CLUSTER_ARCHIVED_OBJECTS)),
    ]);
    const byKey = new Map<string, KeyValue>();
    for (const kv of [...namespaced.kvs, ...cluster.kvs]) byKey.set(kv.key, kv);
    const entries: StoredEntry[] = [...byKey.values()]
      .map((kv) => ({ key: kv.key, modRevision: kv.modRevision, size: kv.value.length }))
      .sort((a, b) => a.modRevision - b.modRevision);
    const deletedAt = (entry: StoredEntry): number => Date.parse(entryParts(decodeObject(byKey.get(entry.key) as KeyValue)).deletion.time);
    const doomed = entriesToPrune(entries, deletedAt, this.policy, this.clock().getTime());
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
}
