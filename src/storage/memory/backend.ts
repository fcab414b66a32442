import type { Backend } from '../backend.js';
import { createLogBackend } from '../log-backend.js';
import { MvccStore } from './mvcc-store.js';

export interface MemoryBackendOptions {
  /**
   * How many revisions (the current one included) at most stay readable; older ones are compacted automatically
   * after each write, so reads and watches from them fail with CompactedError. Default DEFAULT_HISTORY_LIMIT.
   */
  readonly historyLimit?: number;
  /** How long a revision at most stays readable, in milliseconds. Default DEFAULT_HISTORY_WINDOW_MS. */
  readonly historyWindowMs?: number;
  /** The clock the window is measured with, in milliseconds (tests move it by hand). */
  readonly now?: () => number;
}

/**
 * The history bounds of kube-apiserver, whose watch cache keeps up to 102,400 events and whose etcd is compacted
 * every 5 minutes (--etcd-compaction-interval): a watch resumes from any resourceVersion of the last minutes unless
 * a burst of writes has pushed it out, and a burst never makes compaction work on the writes of the burst itself.
 */
export const DEFAULT_HISTORY_LIMIT = 102_400;
export const DEFAULT_HISTORY_WINDOW_MS = 5 * 60 * 1000;

/**
 * A Backend held entirely in process memory; nothing survives a restart.
 *
 * Values are stored without copying: a value passed to create/update belongs to the backend from then on and
 * must not be modified by the caller. Returned KeyValue and WatchEvent objects are frozen and shared, and their
 * `value` bytes must be treated as read-only.
 *
 * Each watcher buffers undelivered events without bound, so a slow consumer never delays writers but costs
 * memory until it catches up or is stopped. After `close()` every watcher has ended and every call rejects.
 */
export function createMemoryBackend(options: MemoryBackendOptions = {}): Backend {
  const store = new MvccStore(
    options.historyLimit ?? DEFAULT_HISTORY_LIMIT,
    options.historyWindowMs ?? DEFAULT_HISTORY_WINDOW_MS,
    options.now,
  );
  return createLogBackend({ name: 'memory', description: 'memory backend', log: store, compact: (revision) => store.compact(revision) });
}
