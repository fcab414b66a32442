import type { Backend } from '../backend.js';
import { WatchHub } from '../watch-hub.js';
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
  const hub = new WatchHub();
  let closed = false;

  function ensureOpen(): void {
    if (closed) throw new Error('memory backend is closed');
  }

  return {
    name: 'memory',

    async currentRevision() {
      ensureOpen();
      return store.revision;
    },

    async compactedRevision() {
      ensureOpen();
      return store.compactedRevision;
    },

    async get(key, opts) {
      ensureOpen();
      return store.get(key, opts?.revision);
    },

    async list(prefix, opts) {
      ensureOpen();
      return store.list(prefix, opts);
    },

    async count(prefix) {
      ensureOpen();
      return store.count(prefix);
    },

    async create(key, value) {
      ensureOpen();
      const event = store.create(key, value);
      hub.publish(event);
      return event.kv;
    },

    async update(key, value, expectedModRevision) {
      ensureOpen();
      const event = store.update(key, value, expectedModRevision);
      hub.publish(event);
      return event.kv;
    },

    async delete(key, expectedModRevision) {
      ensureOpen();
      const event = store.delete(key, expectedModRevision);
      hub.publish(event);
      return event.kv;
    },

    async watch(prefix, afterRevision) {
      ensureOpen();
      return hub.watch(prefix, afterRevision, () => store.eventsAfter(prefix, afterRevision));
    },

    async compact(revision) {
      ensureOpen();
      store.compact(revision);
    },

    async close() {
      closed = true;
      hub.close();
    },
  };
}
