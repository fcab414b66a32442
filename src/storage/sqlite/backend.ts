import type { Backend } from '../backend.js';
import { DEFAULT_HISTORY_LIMIT } from '../memory/backend.js';
import { createLogBackend } from '../log-backend.js';
import { Compactor } from './compactor.js';
import { openDatabase } from './open-database.js';
import { SqliteLog } from './sqlite-log.js';

export { DatabaseInUseError } from './open-database.js';

export interface SqliteBackendOptions {
  /** The database file (created if absent, in an existing directory), or ':memory:' for a throwaway store. */
  readonly path: string;
  /** How often background compaction runs; 0 turns it off. Default 5 minutes, kube-apiserver's etcd compaction interval. */
  readonly compactIntervalMs?: number;
  /** How many revisions (the current one included) background compaction keeps readable. Default 102,400, as in memory. */
  readonly retainRevisions?: number;
}

export const DEFAULT_COMPACT_INTERVAL_MS = 5 * 60_000;
export const DEFAULT_RETAIN_REVISIONS = DEFAULT_HISTORY_LIMIT;

/**
 * A Backend on one SQLite file (better-sqlite3): an append-only revision log whose row ids are the revisions, so
 * objects, their revisions and the history not yet compacted survive a restart.
 *
 * One process owns a file: opening a file another server (or another handle in this process) has open fails with
 * DatabaseInUseError. Watches are served from an in-process hub fed by this handle's commits, after replaying the
 * log from the requested revision.
 *
 * A value passed to create/update is handed to watchers without copying and must not be modified afterwards;
 * values read back are Buffers owned by the caller.
 */
export function createSqliteBackend(options: SqliteBackendOptions): Backend {
  const intervalMs = options.compactIntervalMs ?? DEFAULT_COMPACT_INTERVAL_MS;
  const retain = options.retainRevisions ?? DEFAULT_RETAIN_REVISIONS;
  if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new RangeError(`compactIntervalMs must be >= 0, got ${intervalMs}`);
  if (!Number.isInteger(retain) || retain < 1) throw new RangeError(`retainRevisions must be a positive integer, got ${retain}`);

  const { db, revisions } = openDatabase(options.path);
  const log = new SqliteLog(db, revisions);
  let closed = false;
  const compactor = new Compactor(log, () => closed);

  const timer =
    intervalMs === 0
      ? undefined
      : setInterval(() => {
          const target = log.revision - retain + 1;
          if (closed || target <= log.compactedRevision) return;
          compactor.compact(target).catch((error: unknown) => {
            if (!closed) console.error(`sqlite backend ${options.path}: background compaction failed: ${String(error)}`);
          });
        }, intervalMs);
  // Compaction alone must not keep a process alive.
  timer?.unref();

  return createLogBackend({
    name: 'sqlite',
    description: `sqlite backend ${options.path}`,
    log,
    compact: (revision) => compactor.compact(revision),
    release: () => {
      closed = true;
      if (timer !== undefined) clearInterval(timer);
      db.close();
    },
  });
}
