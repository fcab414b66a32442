import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse } from 'etcd3';
import type { Backend, KeyValue } from '../backend.js';
import { CompactedError, FutureRevisionError, KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../errors.js';
import { connectEtcd } from './client.js';
import { CompactedRevisionTracker } from './compacted-revision.js';
import type { EventQueue } from './event-queue.js';
import { KeySpace } from './key-space.js';
import { revisionOf, toBuffer, toKeyValue } from './key-values.js';
import { ReadBatcher } from './read-batcher.js';
import { isCompactedRevision, isFutureRevision } from './revision-errors.js';
import { DEFAULT_COMPACT_INTERVAL_MS, ScheduledCompactor } from './scheduled-compactor.js';
import { openWatchStream } from './watch-stream.js';

export interface EtcdBackendOptions {
  /** Client URLs, as kube-apiserver's --etcd-servers takes them (e.g. http://127.0.0.1:2379). */
  readonly endpoints: readonly string[];
  /**
   * kube-apiserver's --etcd-prefix (default /registry). It replaces the leading `/registry` of the keys the
   * registry builds, so objects land where a kube-apiserver with the same prefix keeps them (see KeySpace).
   */
  readonly prefix?: string;
  /**
   * kube-apiserver's --etcd-compaction-interval: how often this server takes part in compacting etcd (see
   * ScheduledCompactor); 0 turns it off. Default 5 minutes. Named as the SQLite backend's option.
   */
  readonly compactIntervalMs?: number;
}

export { DEFAULT_COMPACT_INTERVAL_MS };

/**
 * A Backend on etcd v3. The store revision is etcd's revision, so a resourceVersion is an etcd mod_revision as
 * in Kubernetes, and any number of servers can share one etcd: their writes are ordered by etcd and their
 * watches see each other's changes.
 *
 * - create is a transaction "create_revision == 0 → put"; update and conditional delete are "mod_revision ==
 *   expected → write, else read", so a lost race comes back with the winning value in the same round trip.
 *   Failed transactions only read, so, as the contract requires, they do not consume a revision.
 * - Reads of one key at the latest revision that arrive together share a round trip (see ReadBatcher).
 * - Reads and watches below etcd's compact revision fail with CompactedError, above its revision with
 *   FutureRevisionError. etcd does not report its compact revision directly, see CompactedRevisionTracker.
 * - Each watch is its own etcd watch stream from afterRevision + 1 with previous values. If the stream breaks
 *   (etcd unreachable) the watcher fails instead of resuming, and the caller watches again from its last
 *   revision, as Kubernetes clients do when a watch ends. A watch still catching up when etcd compacts past it
 *   ends, after the events it got, with CompactedError.
 * - Every compactIntervalMs the backend takes part in kube-apiserver's compaction schedule (ScheduledCompactor),
 *   so history older than one to two intervals becomes unreadable, and 410 Expired for clients.
 *
 * The client is loaded and connected on creation without waiting; an unreachable etcd surfaces as the first
 * call's error. The bytes passed to create/update are sent as they are and returned as the KeyValue's value.
 */
export function createEtcdBackend(options: EtcdBackendOptions): Backend {
  if (options.endpoints.length === 0) throw new RangeError('createEtcdBackend: at least one endpoint is required');
  const intervalMs = options.compactIntervalMs ?? DEFAULT_COMPACT_INTERVAL_MS;
  if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new RangeError(`compactIntervalMs must be >= 0, got ${intervalMs}`);
  const keys = new KeySpace(options.prefix);
  const connecting = connectEtcd(options.endpoints);
  // Reported by the first call that awaits the client; without a handler here it would be an unhandled rejection.
  connecting.catch(() => undefined);
  const pointReads = connecting.then((etcd) => new ReadBatcher(etcd.kv));
  pointReads.catch(() => undefined);
  const compaction = new CompactedRevisionTracker();
  const watchers = new Set<EventQueue>();
  /** Probes only need a valid key inside our key space; its value is never read. */
  const probeKey = Buffer.from(keys.prefix === '' ? '/' : keys.prefix);
  let closed = false;

  async function client(): Promise<Etcd3> {
    if (closed) throw new Error('etcd backend is closed');
    return connecting;
  }

  async function latestRevision(etcd: Etcd3): Promise<number> {
    const response = await etcd.kv.range({ key: probeKey, count_only: true });
    return revisionOf(response.header.revision);
  }

  async function isReadable(etcd: Etcd3, revision: number): Promise<boolean> {
    try {
      await etcd.kv.range({ key: probeKey, revision, count_only: true });
      return true;
    } catch (error) {
      if (isCompactedRevision(error)) return false;
      throw error;
    }
  }

  async function oldestReadable(etcd: Etcd3): Promise<number> {
    return compaction.find(await latestRevision(etcd), (revision) => isReadable(etcd, revision));
  }

  /** A range at the latest revision, or at `revision`, with etcd's history errors translated. */
  async function rangeAt(etcd: Etcd3, request: IRangeRequest, revision: number | undefined): Promise<IRangeResponse> {
    if (revision === undefined) return etcd.kv.range(request);
    try {
      return await etcd.kv.range({ ...request, revision });
    } catch (error) {
      if (isCompactedRevision(error)) throw new CompactedError(revision, await oldestReadable(etcd));
      if (isFutureRevision(error)) throw new FutureRevisionError(revision, await latestRevision(etcd));
      throw error;
    }
  }

  /** Why a guarded write did not apply, from the value its failure branch read. */
  function guardFailure(key: string, current: IKeyValue | undefined): Error {
    return current === undefined ? new KeyNotFoundError(key) : new RevisionConflictError(key, toKeyValue(keys, current));
  }

  function deletedValue(key: string, previous: IKeyValue | undefined, revision: string): KeyValue {
    if (previous === undefined) throw new KeyNotFoundError(key);
    return { key, value: previous.value, createRevision: revisionOf(previous.create_revision), modRevision: revisionOf(revision) };
  }

  const backend: Backend = {
    name: 'etcd',

    async currentRevision() {
      return latestRevision(await client());
    },

    async compactedRevision() {
      return oldestReadable(await client());
    },

    async get(key, opts) {
      const etcd = await client();
      const revision = requestedRevision(opts?.revision);
      if (revision === undefined) {
        const read = await (await pointReads).read(keys.toEtcd(key));
        return read.kv === undefined ? { revision: read.revision } : { revision: read.revision, kv: toKeyValue(keys, read.kv) };
      }
      const response = await rangeAt(etcd, { key: keys.toEtcd(key) }, revision);
      const found = response.kvs[0];
      return found === undefined ? { revision } : { revision, kv: toKeyValue(keys, found) };
    },

    async list(prefix, opts = {}) {
      const etcd = await client();
      const revision = requestedRevision(opts.revision);
      const limit = opts.limit ?? 0;
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      const range = keys.range(prefix, opts.startKey);
      const response = await rangeAt(etcd, { key: range.key, range_end: range.range_end, limit }, revision);
      const kvs = response.kvs.map((kv) => toKeyValue(keys, kv));
      return {
        revision: revision ?? revisionOf(response.header.revision),
        kvs,
        more: response.more,
        // etcd counts every key in the range, those beyond the limit included.
        remaining: revisionOf(response.count) - kvs.length,
      };
    },

    async count(prefix) {
      const etcd = await client();
      const range = keys.range(prefix);
      const response = await etcd.kv.range({ key: range.key, range_end: range.range_end, count_only: true });
      return revisionOf(response.count);
    },

    async create(key, value) {
      const etcd = await client();
      const etcdKey = keys.toEtcd(key);
      const response = await etcd.kv.txn({
        compare: [{ key: etcdKey, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: etcdKey, value: toBuffer(value) } }],
      });
      if (!response.succeeded) throw new KeyExistsError(key);
      const revision = revisionOf(response.header.revision);
      return { key, value, createRevision: revision, modRevision: revision };
    },

    async update(key, value, expectedModRevision) {
      const etcd = await client();
      const etcdKey = keys.toEtcd(key);
      // mod_revision == 0 would match an absent key and turn the update into a create.
      if (!Number.isSafeInteger(expectedModRevision) || expectedModRevision < 1) {
        const response = await etcd.kv.range({ key: etcdKey });
        throw guardFailure(key, response.kvs[0]);
      }
      const response = await etcd.kv.txn({
        compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
        success: [{ request_put: { key: etcdKey, value: toBuffer(value), prev_kv: true } }],
        failure: [{ request_range: { key: etcdKey } }],
      });
      if (!response.succeeded) throw guardFailure(key, response.responses[0]?.response_range.kvs[0]);
      const previous = response.responses[0]?.response_put.prev_kv;
      if (previous === undefined || previous === null) throw new Error(`etcd returned no previous value for the update of ${key}`);
      return { key, value, createRevision: revisionOf(previous.create_revision), modRevision: revisionOf(response.header.revision) };
    },

    async delete(key, expectedModRevision) {
      const etcd = await client();
      const etcdKey = keys.toEtcd(key);
      if (expectedModRevision === undefined) {
        const response = await etcd.kv.deleteRange({ key: etcdKey, prev_kv: true });
        return deletedValue(key, response.prev_kvs[0], response.header.revision);
      }
      if (!Number.isSafeInteger(expectedModRevision) || expectedModRevision < 1) {
        const response = await etcd.kv.range({ key: etcdKey });
        throw guardFailure(key, response.kvs[0]);
      }
      const response = await etcd.kv.txn({
        compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
        success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }],
        failure: [{ request_range: { key: etcdKey } }],
      });
      if (!response.succeeded) throw guardFailure(key, response.responses[0]?.response_range.kvs[0]);
      return deletedValue(key, response.responses[0]?.response_delete_range.prev_kvs[0], response.header.revision);
    },

    async watch(prefix, afterRevision) {
      const etcd = await client();
      if (!Number.isSafeInteger(afterRevision) || afterRevision < 0) {
        throw new RangeError(`afterRevision must be a non-negative integer, got ${afterRevision}`);
      }
      if (afterRevision + 1 < compaction.known) throw new CompactedError(afterRevision, compaction.known);
      const { queue, createdAtRevision } = await openWatchStream({
        client: etcd,
        keys,
        prefix,
        afterRevision,
        onCompacted: (revision) => compaction.observe(revision),
        onStop: (stopped) => watchers.delete(stopped),
      });
      if (closed) {
        queue.stop();
        throw new Error('etcd backend is closed');
      }
      watchers.add(queue);
      // etcd notices a compacted start revision only in its next pass over new watches, after confirming the
      // watch; one read at the start revision tells the caller now, as the contract asks.
      const start = afterRevision + 1;
      if (start <= createdAtRevision) {
        try {
          if (!(await isReadable(etcd, start))) throw new CompactedError(afterRevision, await oldestReadable(etcd));
        } catch (error) {
          queue.stop();
          throw error;
        }
      }
      return queue;
    },

    async compact(revision) {
      const etcd = await client();
      if (!Number.isSafeInteger(revision)) throw new RangeError(`revision must be an integer, got ${revision}`);
      if (revision <= compaction.known) return;
      try {
        await etcd.kv.compact({ revision });
      } catch (error) {
        // Compacting at or below etcd's compact revision (another server may have compacted) changes nothing.
        if (isCompactedRevision(error)) return;
        if (isFutureRevision(error)) throw new FutureRevisionError(revision, await latestRevision(etcd));
        throw error;
      }
      compaction.observe(revision);
    },

    async close() {
      if (closed) return;
      closed = true;
      compactor?.stop();
      for (const watcher of [...watchers]) watcher.stop();
      try {
        (await connecting).close();
      } catch {
        // The client never loaded or connected: there is nothing to close.
      }
    },
  };

  const compactor =
    intervalMs === 0
      ? undefined
      : new ScheduledCompactor({
          intervalMs,
          txn: async (request) => (await client()).kv.txn(request),
          compact: (revision) => backend.compact(revision),
          onError: (error) => console.error(`etcd backend ${options.endpoints.join(',')}: scheduled compaction failed: ${String(error)}`),
        });
  compactor?.start();
  return backend;
}

/** Revision 0 or absent means the latest, as in etcd. */
function requestedRevision(revision: number | undefined): number | undefined {
  if (revision === undefined || revision === 0) return undefined;
  if (!Number.isSafeInteger(revision) || revision < 0) throw new RangeError(`revision must be a non-negative integer, got ${revision}`);
  return revision;
}
