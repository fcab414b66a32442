import type Database from 'better-sqlite3';

/** Bumped whenever the layout below changes in a way an older Cascade could not read. */
export const SCHEMA_VERSION = 1;

/**
 * A kine-style append-only log: every write appends one row, and the row id is the write's revision.
 *
 * - `created` = 1 marks a create; such a row's create revision is its own id (`create_revision` holds 0, as in
 *   kine).
 * - `deleted` = 1 marks a delete; `value` then holds the value that was deleted.
 * - `prev_revision` is the id of the row this write superseded (0 for the first create of a key), so
 *   UNIQUE(name, prev_revision) lets at most one write follow any given version: the database itself refuses a
 *   second successor, which is compare-and-swap.
 * - `old_value` is the superseded value for updates, so a watch can still report prevKv after compaction has
 *   removed the superseded row. Creates have no previous value, and deletes carry it in `value`.
 *
 * The unique index is the only index, because each extra one costs a page write per commit. It serves every read:
 * a key's rows have increasing ids and increasing prev_revisions alike, so within a name it is also in revision
 * order (and SQLite stores the id in every index entry), and "is this row the newest at revision R" is the point
 * lookup "no row of the key has prev_revision = this id and id <= R".
 *
 * Revisions are assigned by the one writer as current + 1, not by AUTOINCREMENT (whose sqlite_sequence row would
 * be one more page written per commit). The newest row is never compacted away, so MAX(id) is the current
 * revision after a restart; an empty log is at revision 1, as the contract requires.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value BLOB NOT NULL,
  old_value BLOB,
  UNIQUE (name, prev_revision),
  CHECK (created = 1 OR deleted = 1 OR old_value IS NOT NULL)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
`;

export const META_SCHEMA_VERSION = 'schema_version';
export const META_COMPACT_REVISION = 'compact_revision';

export interface StoredRevisions {
  /** The revision of the newest write (1 for an empty store). */
  readonly current: number;
  readonly compacted: number;
}

/** Creates the tables on first use and reads the revisions back. Must run inside a write transaction. */
export function initializeSchema(db: Database.Database): StoredRevisions {
  db.exec(DDL);
  const version = metaValue(db, META_SCHEMA_VERSION);
  if (version === undefined) setMetaValue(db, META_SCHEMA_VERSION, SCHEMA_VERSION);
  else if (version !== SCHEMA_VERSION) {
    throw new Error(`the SQLite store has schema version ${version}; this Cascade reads version ${SCHEMA_VERSION}`);
  }
  const newest = db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM log').get()?.id ?? null;
  let compacted = metaValue(db, META_COMPACT_REVISION);
  if (compacted === undefined) {
    compacted = 1;
    setMetaValue(db, META_COMPACT_REVISION, compacted);
  }
  return { current: newest ?? 1, compacted };
}

function metaValue(db: Database.Database, key: string): number | undefined {
  return db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
}

export function setMetaValue(db: Database.Database, key: string, value: number): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
