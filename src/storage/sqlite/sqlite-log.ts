import Database from 'better-sqlite3';
import type { GetResult, KeyValue, ListOptions, ListResult, PutRecord, WatchEvent } from '../backend.js';
import { CompactedError, FutureRevisionError, KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../errors.js';
import { prefixEnd } from './key-range.js';
import { eventOf, keyValueOf, LOG_COLUMNS, type LogRow, STATE_COLUMNS, type StateRow } from './log-rows.js';
import { META_COMPACT_REVISION, type StoredRevisions, setMetaValue } from './schema.js';

/** SQLite treats LIMIT -1 as no limit. */
const NO_LIMIT = -1;
/** Counts remembered for the next page of a paged list (see `list`); a few lists page at once. */
const REMEMBERED_COUNTS = 64;

type InsertParams = [
  id: number,
  name: string,
  created: number,
  deleted: number,
  createRevision: number,
  prevRevision: number,
  value: Uint8Array,
  oldValue: Uint8Array | null,
];

/** A prepared statement for prefix scans with an upper bound, and one for the empty prefix, which has none. */
interface RangeStatements<P extends unknown[], R> {
  readonly bounded: Database.Statement<[string, string, ...P], R>;
  readonly open: Database.Statement<[string, ...P], R>;
}

/** Watch replay binds the revision first: [afterRevision, prefix, end?]. */
interface AfterStatements {
  readonly bounded: Database.Statement<[number, string, string], LogRow>;
  readonly open: Database.Statement<[number, string], LogRow>;
}

/**
 * The synchronous multi-version store on the log table. better-sqlite3 runs every statement to completion on the
 * calling thread, so a read-compare-append sequence cannot interleave with another write of this process; the
 * UNIQUE(name, prev_revision) constraint is the database's own guarantee on top of that.
 */
export class SqliteLog {
  readonly #db: Database.Database;
  #current: number;
  #compacted: number;
  readonly #latestAt: Database.Statement<[string, number], StateRow>;
  readonly #insert: Database.Statement<InsertParams>;
  readonly #list: RangeStatements<[number, number, number], StateRow>;
  readonly #count: RangeStatements<[number, number], { total: number }>;
  readonly #after: AfterStatements;
  readonly #minId: Database.Statement<[], { id: number | null }>;
  readonly #compactBatch: Database.Statement<[number, number, number]>;
  /** "revision, start, end" → live keys in [start, end) at that revision: what the next page's count will be. */
  readonly #nextPageCounts = new Map<string, number>();

  constructor(db: Database.Database, revisions: StoredRevisions) {
    this.#db = db;
    this.#current = revisions.current;
    this.#compacted = revisions.compacted;
    // Within a name, prev_revision order is revision order (see schema.ts), so this walks the unique index backwards.
    this.#latestAt = db.prepare(`SELECT ${STATE_COLUMNS} FROM log WHERE name = ? AND id <= ? ORDER BY prev_revision DESC LIMIT 1`);
    this.#insert = db.prepare(
      'INSERT INTO log (id, name, created, deleted, create_revision, prev_revision, value, old_value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // A row is a key's state at revision R when it is at or below R and its successor (if any) is not. Scanning the
    // unique index in name order lets a limited page stop early instead of grouping the whole prefix; the unary plus
    // keeps the planner from walking the id range instead.
    const visible = (range: string): string =>
      `${range} AND +l.id <= ? AND l.deleted = 0 AND NOT EXISTS (SELECT 1 FROM log AS n WHERE n.name = l.name AND n.prev_revision = l.id AND n.id <= ?)`;
    const ranged = <P extends unknown[], R>(sql: (range: string) => string): RangeStatements<P, R> => ({
      bounded: db.prepare(sql('l.name >= ? AND l.name < ?')),
      open: db.prepare(sql('l.name >= ?')),
    });
    this.#list = ranged((range) => `SELECT ${STATE_COLUMNS} FROM log AS l WHERE ${visible(range)} ORDER BY l.name LIMIT ?`);
    this.#count = ranged((range) => `SELECT COUNT(*) AS total FROM log AS l WHERE ${visible(range)}`);
    // Watches mostly start from a recent revision (a list's), so replay walks the id range and filters by name;
    // the unary plus keeps the planner from scanning the prefix's whole history through the name index instead.
    const replay = `SELECT ${LOG_COLUMNS} FROM log WHERE id > ? AND +name >= ?`;
    this.#after = {
      bounded: db.prepare(`${replay} AND +name < ? ORDER BY id`),
      open: db.prepare(`${replay} ORDER BY id`),
    };
    this.#minId = db.prepare('SELECT MIN(id) AS id FROM log');
    // A row below the compact revision can go when its successor is at or below it (that one, or a later one,
    // answers every read from the compact revision on), or when it is a delete (the key is absent there, and its
    // earlier rows go with it). Rows at or above the compact revision stay: a watch from compact revision - 1 replays
    // them. A kept row's successor is always kept too, which is what the reads above rely on.
    this.#compactBatch = db.prepare(
      'DELETE FROM log WHERE id >= ? AND id < ? AND (deleted = 1 OR EXISTS ' +
        '(SELECT 1 FROM log AS n WHERE n.name = log.name AND n.prev_revision = log.id AND n.id <= ?))',
    );
  }

  get revision(): number {
    return this.#current;
  }

  get compactedRevision(): number {
    return this.#compacted;
  }

  get(key: string, revision?: number): GetResult {
    const readRevision = this.#readRevision(revision);
    const row = this.#latestAt.get(key, readRevision);
    return row === undefined || row.deleted === 1 ? { revision: readRevision } : { revision: readRevision, kv: keyValueOf(row) };
  }

  list(prefix: string, options: ListOptions = {}): ListResult {
    const readRevision = this.#readRevision(options.revision);
    const limit = options.limit ?? 0;
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    const start = options.startKey !== undefined && options.startKey > prefix ? options.startKey : prefix;
    const end = prefixEnd(prefix);
    // One row past the limit tells whether more follow, without counting the rest of the range.
    const rowLimit = limit === 0 ? NO_LIMIT : limit + 1;
    const rows =
      end === undefined
        ? this.#list.open.all(start, readRevision, readRevision, rowLimit)
        : this.#list.bounded.all(start, end, readRevision, readRevision, rowLimit);
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const kvs = rows.map(keyValueOf);
    const last = kvs[kvs.length - 1];
    const remaining =
      more && options.countRemaining !== false && last !== undefined
        ? this.#remainingAfter(start, end, readRevision, kvs.length, last.key)
        : 0;
    return { revision: readRevision, kvs, more, remaining };
  }

  /**
   * Live keys after a page of `returned` keys from `start`. Counting is linear in the rest of the range, so a paged
   * list counting on every page would be quadratic (2,000 pages of 500 over a million keys). A page's revision is
   * pinned by its continue token and keys at a past revision never change, so the count for the next page (which
   * starts right after this one's last key) is this one's minus the keys returned, remembered for the latest pages.
   */
  #remainingAfter(start: string, end: string | undefined, revision: number, returned: number, lastKey: string): number {
    const key = `${revision}\u0000${start}\u0000${end ?? ''}`;
    // Kept after use: several informers often page the same range at the same revision in lockstep (three cache
    // ConfigMaps at start-up), and one taking the count away made the others count the rest on every page.
    const known = this.#nextPageCounts.get(key);
    const total = known ?? this.#countFrom(start, end, revision);
    const remaining = total - returned;
    if (this.#nextPageCounts.size >= REMEMBERED_COUNTS) {
      const oldest = this.#nextPageCounts.keys().next().value;
      if (oldest !== undefined) this.#nextPageCounts.delete(oldest);
    }
    const next = `${revision}\u0000${lastKey}\u0000\u0000${end ?? ''}`;
    // Re-inserted, so the eviction above drops the least recently set count.
    this.#nextPageCounts.delete(next);
    this.#nextPageCounts.set(next, remaining);
    return remaining;
  }

  count(prefix: string): number {
    return this.#countFrom(prefix, prefixEnd(prefix), this.#current);
  }

  create(key: string, value: Uint8Array): WatchEvent {
    const latest = this.#latestAt.get(key, this.#current);
    if (latest !== undefined && latest.deleted === 0) throw new KeyExistsError(key);
    const revision = this.#append([this.#current + 1, key, 1, 0, 0, latest?.id ?? 0, value, null]);
    return { type: 'put', kv: { key, value, createRevision: revision, modRevision: revision }, revision };
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): WatchEvent {
    const current = this.#existing(key, expectedModRevision);
    const revision = this.#append([this.#current + 1, key, 0, 0, current.createRevision, current.modRevision, value, current.value]);
    const kv: KeyValue = { key, value, createRevision: current.createRevision, modRevision: revision };
    return { type: 'put', kv, prevKv: current, revision };
  }

  delete(key: string, expectedModRevision?: number): WatchEvent {
    const current = this.#existing(key, expectedModRevision);
    const revision = this.#append([this.#current + 1, key, 0, 1, current.createRevision, current.modRevision, current.value, null]);
    const kv: KeyValue = { key, value: current.value, createRevision: current.createRevision, modRevision: revision };
    return { type: 'delete', kv, prevKv: current, revision };
  }

  /**
   * A delete and a record in one SQLite transaction: a crash between the two rows rolls both back. A failed guard
   * throws before anything is written.
   */
  deleteAndPut(key: string, expectedModRevision: number | undefined, record: PutRecord): readonly [WatchEvent, WatchEvent] {
    const before = this.#current;
    try {
      return this.#db.transaction((): readonly [WatchEvent, WatchEvent] => {
        const deleted = this.delete(key, expectedModRevision);
        const latest = this.#latestAt.get(record.key, this.#current);
        const recorded =
          latest === undefined || latest.deleted === 1
            ? this.create(record.key, record.value)
            : this.update(record.key, record.value, latest.id);
        return [deleted, recorded];
      })();
    } catch (error) {
      this.#current = before;
      throw error;
    }
  }

  /** The events a watch from afterRevision must replay, read back from the log. */
  eventsAfter(prefix: string, afterRevision: number): WatchEvent[] {
    if (afterRevision + 1 < this.#compacted) throw new CompactedError(afterRevision, this.#compacted);
    const end = prefixEnd(prefix);
    const rows = end === undefined ? this.#after.open.all(afterRevision, prefix) : this.#after.bounded.all(afterRevision, prefix, end);
    return rows.map(eventOf);
  }

  /**
   * Makes reads below `revision` fail from now on and records that durably; the rows it frees are deleted by
   * `deleteCompactedRows`. Returns false when the store is already compacted that far.
   */
  markCompacted(revision: number): boolean {
    if (!Number.isInteger(revision)) throw new RangeError(`revision must be an integer, got ${revision}`);
    if (revision > this.#current) throw new FutureRevisionError(revision, this.#current);
    if (revision <= this.#compacted) return false;
    setMetaValue(this.#db, META_COMPACT_REVISION, revision);
    this.#compacted = revision;
    return true;
  }

  /** The oldest row id, where a compaction sweep starts; undefined for an empty log. */
  oldestRow(): number | undefined {
    return this.#minId.get()?.id ?? undefined;
  }

  /**
   * Deletes the rows with from <= id < to that no read at or after `compactRevision` needs. Each call is a valid
   * compaction on its own, so a sweep may stop between calls (or the process die) without harm.
   */
  deleteCompactedRows(from: number, to: number, compactRevision: number): number {
    return this.#compactBatch.run(from, Math.min(to, compactRevision), compactRevision).changes;
  }

  #countFrom(start: string, end: string | undefined, revision: number): number {
    const row =
      end === undefined ? this.#count.open.get(start, revision, revision) : this.#count.bounded.get(start, end, revision, revision);
    return row?.total ?? 0;
  }

  #append(params: InsertParams): number {
    try {
      this.#insert.run(...params);
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') this.#lostRace(params[1], params[2] === 1);
      throw error;
    }
    this.#current = params[0];
    return this.#current;
  }

  /**
   * The version this write was based on already has a successor: report it as the contract's error. The read
   * before each append rules this out while this handle is the only writer; the constraint is the database's own
   * guarantee should that ever not hold.
   */
  #lostRace(key: string, creating: boolean): never {
    if (creating) throw new KeyExistsError(key);
    const latest = this.#latestAt.get(key, Number.MAX_SAFE_INTEGER);
    if (latest === undefined || latest.deleted === 1) throw new KeyNotFoundError(key);
    throw new RevisionConflictError(key, keyValueOf(latest));
  }

  #existing(key: string, expectedModRevision: number | undefined): KeyValue {
    const latest = this.#latestAt.get(key, this.#current);
    if (latest === undefined || latest.deleted === 1) throw new KeyNotFoundError(key);
    const current = keyValueOf(latest);
    if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
      throw new RevisionConflictError(key, current);
    }
    return current;
  }

  /** Revision 0 or absent means the latest, as in etcd. */
  #readRevision(requested: number | undefined): number {
    if (requested === undefined || requested === 0) return this.#current;
    if (!Number.isInteger(requested) || requested < 0) {
      throw new RangeError(`revision must be a non-negative integer, got ${requested}`);
    }
    if (requested > this.#current) throw new FutureRevisionError(requested, this.#current);
    if (requested < this.#compacted) throw new CompactedError(requested, this.#compacted);
    return requested;
  }
}
