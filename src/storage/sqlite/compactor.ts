import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SqliteLog } from './sqlite-log.js';

/** Revisions swept per delete statement; each batch is one short transaction, so reads and writes go on between. */
const BATCH_REVISIONS = 1000;

/**
 * Compaction in two steps: the compact revision is recorded at once (reads and watches below it fail from then
 * on), and the rows it frees are deleted in small batches, yielding to the event loop between batches so that a
 * large backlog never stalls the server. Sweeps run one after another; each sweeps up to the newest recorded compact
 * revision.
 */
export class Compactor {
  readonly #log: SqliteLog;
  readonly #isClosed: () => boolean;
  /** The sweep in progress or queued; settles without error so that one failed sweep does not block the next. */
  #sweeps: Promise<void> = Promise.resolve();

  constructor(log: SqliteLog, isClosed: () => boolean) {
    this.#log = log;
    this.#isClosed = isClosed;
  }

  /** Compacts at `revision` and resolves once the rows below it are deleted. */
  compact(revision: number): Promise<void> {
    if (!this.#log.markCompacted(revision)) return this.#sweeps;
    const sweep = this.#sweeps.then(() => this.#sweep());
    this.#sweeps = sweep.catch(() => undefined);
    return sweep;
  }

  async #sweep(): Promise<void> {
    if (this.#isClosed()) return;
    const target = this.#log.compactedRevision;
    let from = this.#log.oldestRow();
    while (from !== undefined && from < target && !this.#isClosed()) {
      const to = Math.min(from + BATCH_REVISIONS, target);
      this.#log.deleteCompactedRows(from, to, target);
      from = to;
      await nextTurn();
    }
  }
}
