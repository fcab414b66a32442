import type { GetResult, KeyValue, ListOptions, ListResult, PutRecord, WatchEvent } from '../backend.js';
import { CompactedError, FutureRevisionError, KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../errors.js';
import { EventLog } from './event-log.js';
import { latestValue, pruneVersions, Tombstone, type VersionList, valueAt } from './key-versions.js';
import { SortedKeySet } from './sorted-key-set.js';

/**
 * The synchronous multi-version key-value store behind the memory backend. Every write runs to completion
 * before the next starts, so compare-and-swap is exact without locks.
 *
 * Ownership rule: a value passed to a write is stored as is, not copied; the caller hands it over and must not
 * modify it afterwards. KeyValue and WatchEvent objects handed out are frozen and shared between readers; their
 * `value` bytes are shared too and must be treated as read-only.
 *
 * Keys that were deleted keep a tombstone (and stay in the key index) until compaction passes the deletion, so
 * that reads at older revisions still see them.
 *
 * History is compacted as writes happen: a revision stays readable while it is one of the last `historyLimit` and
 * was current (not yet replaced by the next write) within the last `historyWindowMs`.
 */
export class MvccStore {
  readonly #historyLimit: number;
  readonly #historyWindowMs: number;
  readonly #now: () => number;
  /**
   * Creates of keys that still had versions (a tombstone, or older ones within history): only their drop from
   * history, like an update's or a delete's, can leave older versions to prune. A first create's cannot (see
   * #mayPrune), and skipping those spares compaction a lookup of every created key.
   */
  readonly #recreated = new WeakSet<WatchEvent>();
  readonly #versions = new Map<string, VersionList>();
  readonly #keys = new SortedKeySet();
  readonly #log = new EventLog();
  #revision = 1;
  #compactedRevision = 1;

  /**
   * historyLimit: how many revisions (the current one included) at most stay readable; historyWindowMs: how long a
   * revision at most stays readable, measured with `now` (milliseconds).
   */
  constructor(historyLimit: number, historyWindowMs = Number.POSITIVE_INFINITY, now: () => number = () => performance.now()) {
    if (!Number.isInteger(historyLimit) || historyLimit < 1) {
      throw new RangeError(`historyLimit must be a positive integer, got ${historyLimit}`);
    }
    if (!(historyWindowMs > 0)) throw new RangeError(`historyWindowMs must be positive, got ${historyWindowMs}`);
    this.#historyLimit = historyLimit;
    this.#historyWindowMs = historyWindowMs;
    this.#now = now;
  }

  get revision(): number {
    return this.#revision;
  }

  get compactedRevision(): number {
    return this.#compactedRevision;
  }

  get(key: string, revision?: number): GetResult {
    const readRevision = this.#readRevision(revision);
    const versions = this.#versions.get(key);
    if (versions === undefined) return { revision: readRevision };
    const kv = readRevision === this.#revision ? latestValue(versions) : valueAt(versions, readRevision);
    return kv === undefined ? { revision: readRevision } : { revision: readRevision, kv };
  }

  list(prefix: string, options: ListOptions = {}): ListResult {
    const readRevision = this.#readRevision(options.revision);
    const limit = options.limit ?? 0;
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    const start = options.startKey !== undefined && options.startKey > prefix ? options.startKey : prefix;
    const kvs: KeyValue[] = [];
    let remaining = 0;
    for (const kv of this.#valuesFrom(start, prefix, readRevision)) {
      if (limit === 0 || kvs.length < limit) kvs.push(kv);
      else remaining += 1;
    }
    return { revision: readRevision, kvs, more: remaining > 0, remaining };
  }

  count(prefix: string): number {
    let total = 0;
    for (const _ of this.#valuesFrom(prefix, prefix, this.#revision)) total += 1;
    return total;
  }

  create(key: string, value: Uint8Array): WatchEvent {
    const versions = this.#versions.get(key);
    if (versions !== undefined && latestValue(versions) !== undefined) throw new KeyExistsError(key);
    const revision = this.#revision + 1;
    const kv: KeyValue = Object.freeze({ key, value, createRevision: revision, modRevision: revision });
    const event: WatchEvent = Object.freeze({ type: 'put', kv, revision });
    if (versions === undefined) {
      this.#versions.set(key, [kv]);
      this.#keys.add(key);
    } else {
      versions.push(kv);
      this.#recreated.add(event);
    }
    return this.#commit(event);
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): WatchEvent {
    const { versions, current } = this.#existing(key, expectedModRevision);
    const revision = this.#revision + 1;
    const kv: KeyValue = Object.freeze({ key, value, createRevision: current.createRevision, modRevision: revision });
    versions.push(kv);
    return this.#commit(Object.freeze({ type: 'put', kv, prevKv: current, revision }));
  }

  delete(key: string, expectedModRevision?: number): WatchEvent {
    const { versions, current } = this.#existing(key, expectedModRevision);
    const revision = this.#revision + 1;
    const kv: KeyValue = Object.freeze({
      key,
      value: current.value,
      createRevision: current.createRevision,
      modRevision: revision,
    });
    versions.push(new Tombstone(revision));
    return this.#commit(Object.freeze({ type: 'delete', kv, prevKv: current, revision }));
  }

  /**
   * A delete and a record written right after it. Nothing runs between the two (the store is synchronous) and the
   * delete's guard is checked first, so a failed guard writes neither.
   */
  deleteAndPut(key: string, expectedModRevision: number | undefined, record: PutRecord): readonly [WatchEvent, WatchEvent] {
    const deleted = this.delete(key, expectedModRevision);
    const versions = this.#versions.get(record.key);
    const current = versions === undefined ? undefined : latestValue(versions);
    const recorded =
      current === undefined ? this.create(record.key, record.value) : this.update(record.key, record.value, current.modRevision);
    return [deleted, recorded];
  }

  /** The events a watch from afterRevision must replay. */
  eventsAfter(prefix: string, afterRevision: number): WatchEvent[] {
    if (afterRevision + 1 < this.#compactedRevision) {
      throw new CompactedError(afterRevision, this.#compactedRevision);
    }
    return this.#log.after(afterRevision, prefix);
  }

  /** Makes revisions below `revision` unreadable and frees their history. Compacting backwards does nothing. */
  compact(revision: number): void {
    if (!Number.isInteger(revision)) throw new RangeError(`revision must be an integer, got ${revision}`);
    if (revision > this.#revision) throw new FutureRevisionError(revision, this.#revision);
    if (revision <= this.#compactedRevision) return;
    this.#compactedRevision = revision;
    this.#log.dropBefore(revision, (event) => {
      if (this.#mayPrune(event)) this.#prune(event.kv.key, revision);
    });
  }

  /**
   * Whether dropping `event` from history can leave versions of its key to prune. Compaction drops events oldest
   * first and prunes each key down to its newest version at or below the compact revision; a key's first create
   * is its oldest version, so anything its drop could prune belongs to a later write whose own drop (in this
   * compaction or a later one) prunes it.
   */
  #mayPrune(event: WatchEvent): boolean {
    return event.type === 'delete' || event.prevKv !== undefined || this.#recreated.has(event);
  }

  #prune(key: string, compactRevision: number): void {
    const versions = this.#versions.get(key);
    if (versions === undefined || pruneVersions(versions, compactRevision)) return;
    this.#versions.delete(key);
    this.#keys.delete(key);
  }

  #commit(event: WatchEvent): WatchEvent {
    this.#revision = event.revision;
    const now = this.#now();
    this.#log.append(event, now);
    // A revision written before the window stays readable as long as it was current within it: until the next write.
    const aged = this.#log.newestRevisionBefore(now - this.#historyWindowMs) ?? 0;
    const oldestKept = Math.max(this.#revision - this.#historyLimit + 1, aged);
    if (oldestKept > this.#compactedRevision) this.compact(oldestKept);
    return event;
  }

  #existing(key: string, expectedModRevision: number | undefined): { versions: VersionList; current: KeyValue } {
    const versions = this.#versions.get(key);
    const current = versions === undefined ? undefined : latestValue(versions);
    if (versions === undefined || current === undefined) throw new KeyNotFoundError(key);
    if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
      throw new RevisionConflictError(key, current);
    }
    return { versions, current };
  }

  /** Revision 0 or absent means the latest, as in etcd. */
  #readRevision(requested: number | undefined): number {
    if (requested === undefined || requested === 0) return this.#revision;
    if (!Number.isInteger(requested) || requested < 0) {
      throw new RangeError(`revision must be a non-negative integer, got ${requested}`);
    }
    if (requested > this.#revision) throw new FutureRevisionError(requested, this.#revision);
    if (requested < this.#compactedRevision) throw new CompactedError(requested, this.#compactedRevision);
    return requested;
  }

  *#valuesFrom(start: string, prefix: string, revision: number): Generator<KeyValue, void, undefined> {
    const latest = revision === this.#revision;
    for (const key of this.#keys.from(start)) {
      if (!key.startsWith(prefix)) return;
      const versions = this.#versions.get(key) as VersionList;
      const kv = latest ? latestValue(versions) : valueAt(versions, revision);
      if (kv !== undefined) yield kv;
    }
  }
}
