import type { Backend, GetResult, ListOptions, ListResult, PutRecord, WatchEvent } from './backend.js';
import { WatchHub } from './watch-hub.js';

/**
 * A revision log held by this process (in memory or in a SQLite file): synchronous reads, writes that return the
 * event they commit, and replay of the history not yet compacted.
 */
export interface RevisionLog {
  readonly revision: number;
  readonly compactedRevision: number;
  get(key: string, revision?: number): GetResult;
  list(prefix: string, options?: ListOptions): ListResult;
  count(prefix: string): number;
  create(key: string, value: Uint8Array): WatchEvent;
  update(key: string, value: Uint8Array, expectedModRevision: number): WatchEvent;
  delete(key: string, expectedModRevision?: number): WatchEvent;
  /** The delete's event, then the record's: committed together or not at all. */
  deleteAndPut(key: string, expectedModRevision: number | undefined, record: PutRecord): readonly [WatchEvent, WatchEvent];
  eventsAfter(prefix: string, afterRevision: number): WatchEvent[];
}

export interface LogBackendParts {
  readonly name: string;
  /** "memory backend", "sqlite backend /path": how errors after close() name the backend. */
  readonly description: string;
  readonly log: RevisionLog;
  compact(revision: number): void | Promise<void>;
  /** Releases what the log holds, once, after every watcher has ended. */
  release?(): void;
}

/**
 * The Backend over a local revision log: every call fails once closed, and each write's event is published to the
 * watchers after the log has committed it, so a watcher never sees an event the log could lose.
 */
export function createLogBackend(parts: LogBackendParts): Backend {
  const { log, description } = parts;
  const hub = new WatchHub();
  let closed = false;

  function ensureOpen(): void {
    if (closed) throw new Error(`${description} is closed`);
  }

  return {
    name: parts.name,

    async currentRevision() {
      ensureOpen();
      return log.revision;
    },

    async compactedRevision() {
      ensureOpen();
      return log.compactedRevision;
    },

    async get(key, opts) {
      ensureOpen();
      return log.get(key, opts?.revision);
    },

    async list(prefix, opts) {
      ensureOpen();
      return log.list(prefix, opts);
    },

    async count(prefix) {
      ensureOpen();
      return log.count(prefix);
    },

    async create(key, value) {
      ensureOpen();
      const event = log.create(key, value);
      hub.publish(event);
      return event.kv;
    },

    async update(key, value, expectedModRevision) {
      ensureOpen();
      const event = log.update(key, value, expectedModRevision);
      hub.publish(event);
      return event.kv;
    },

    async delete(key, expectedModRevision) {
      ensureOpen();
      const event = log.delete(key, expectedModRevision);
      hub.publish(event);
      return event.kv;
    },

    async deleteAndPut(key, expectedModRevision, record) {
      ensureOpen();
      const [deleted, recorded] = log.deleteAndPut(key, expectedModRevision, record);
      hub.publish(deleted);
      hub.publish(recorded);
      return deleted.kv;
    },

    async watch(prefix, afterRevision) {
      ensureOpen();
      return hub.watch(prefix, afterRevision, () => log.eventsAfter(prefix, afterRevision));
    },

    async compact(revision) {
      ensureOpen();
      await parts.compact(revision);
    },

    async close() {
      if (closed) return;
      closed = true;
      hub.close();
      parts.release?.();
    },
  };
}
