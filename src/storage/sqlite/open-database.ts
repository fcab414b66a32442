import Database from 'better-sqlite3';
import { initializeSchema, type StoredRevisions } from './schema.js';

/** Thrown when another process (or another handle in this one) already serves the same SQLite file. */
export class DatabaseInUseError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(
      `the SQLite store ${path} is in use by another Cascade server (or another handle in this process); ` +
        'only one server may write a data file at a time',
    );
    this.name = 'DatabaseInUseError';
    this.path = path;
  }
}

export interface OpenedDatabase {
  readonly db: Database.Database;
  readonly revisions: StoredRevisions;
}

/**
 * Opens (creating if needed) the store at `path` and takes it for this handle alone.
 *
 * Single writer: watches are fed from an in-process hub that only this handle's writes reach, so a second
 * process writing the same file would produce events nobody here delivers. SQLite's EXCLUSIVE locking mode keeps
 * the file lock from the first write transaction until close, and the write transaction below takes it at once,
 * so a second opener fails immediately (busy timeout 0) instead of half-working. The lock dies with the process,
 * so a killed server does not block its successor.
 *
 * WAL with synchronous=NORMAL: a commit appends to the write-ahead log without waiting for fsync, which is several
 * times faster than FULL. A process crash (even SIGKILL) loses nothing, because committed frames are already in
 * the operating system's hands; only a power loss or kernel crash can drop the last commits, and never corrupts
 * the file. EXCLUSIVE mode must be set before WAL so that SQLite keeps the WAL index in process memory instead of
 * a shared-memory file that only matters for concurrent processes.
 */
export function openDatabase(path: string): OpenedDatabase {
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const revisions = db.transaction(() => initializeSchema(db)).immediate();
    return { db, revisions };
  } catch (error) {
    db.close();
    if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY')) throw new DatabaseInUseError(path);
    throw error;
  }
}
