import type { TxnRequest, TxnResponse } from './kv-messages.js';

/**
 * The key kube-apiserver's compactors coordinate through. It sits at etcd's root, outside every --etcd-prefix, so
 * every server on one etcd (Cascade or kube-apiserver) takes part in the same schedule.
 */
export const COMPACT_REV_KEY = 'compact_rev_key';

/** kube-apiserver's --etcd-compaction-interval default. */
export const DEFAULT_COMPACT_INTERVAL_MS = 5 * 60_000;

export interface ScheduledCompactorOptions {
  readonly txn: (request: TxnRequest) => Promise<TxnResponse>;
  /** Compacts etcd at the revision; compacting at or below etcd's compact revision must succeed quietly. */
  readonly compact: (revision: number) => Promise<void>;
  /** Time between rounds; the first round runs one interval after start(). */
  readonly intervalMs: number;
  readonly onError: (error: unknown) => void;
}

/**
 * kube-apiserver's periodic etcd compaction: each round compacts to the revision etcd had at the previous round,
 * so history of at least one interval stays readable. Servers sharing an etcd take turns through a
 * compare-and-swap on the version of COMPACT_REV_KEY, which counts the rounds: a server whose last seen version
 * is still current wins the round (its put bumps the version) and compacts; the others lose, learn the version and
 * the revision, and try again next interval. So one server compacts per interval, and when it stops another
 * takes over within two intervals. The first round a server wins after starting only records the revision: it
 * has no earlier one to compact to.
 */
export class ScheduledCompactor {
  readonly #options: ScheduledCompactorOptions;
  /** COMPACT_REV_KEY's version as this server last saw it. */
  #round = 0;
  /** etcd's revision at this server's last round, won or lost; 0 before the first. */
  #revision = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: ScheduledCompactorOptions) {
    if (!Number.isFinite(options.intervalMs) || options.intervalMs <= 0) {
      throw new RangeError(`compaction interval must be a positive number of milliseconds, got ${options.intervalMs}`);
    }
    this.#options = options;
  }

  start(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * One round. Resolves with the revision compacted to, or undefined when this server lost the round or only
   * recorded the revision. A failed round keeps what it learned, as kube-apiserver does.
   */
  async round(): Promise<number | undefined> {
    const key = Buffer.from(COMPACT_REV_KEY);
    const response = await this.#options.txn({
      compare: [{ key, target: 'version', equals: this.#round }],
      success: [{ put: { key, value: Buffer.from(String(this.#revision)) } }],
      failure: [{ range: { key } }],
    });
    const current = response.revision;
    if (!response.succeeded) {
      // Deleted by hand, the key reads as version 0, which the next round's compare then expects.
      this.#round = response.responses[0]?.range?.kvs[0]?.version ?? 0;
      this.#revision = current;
      return undefined;
    }
    this.#round += 1;
    const target = this.#revision;
    this.#revision = current;
    if (target === 0) return undefined;
    await this.#options.compact(target);
    return target;
  }

  /** Rounds run one after another, so a slow etcd never has two in flight. */
  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.round()
        .catch((error: unknown) => {
          if (!this.#stopped) this.#options.onError(error);
        })
        .finally(() => {
          if (!this.#stopped) this.#schedule();
        });
    }, this.#options.intervalMs);
    // Compaction alone must not keep a process alive.
    this.#timer.unref();
  }
}
