import type { Backend, KeyValue } from '../backend.js';
import { RequestMetrics } from '../request-metrics.js';
import {
  CompactedError,
  FutureRevisionError,
  isContractAnswer,
  KeyExistsError,
  KeyNotFoundError,
  RevisionConflictError,
  StorageUnavailableError,
} from '../errors.js';
import { CompactedRevisionTracker } from './compacted-revision.js';
import type { EventQueue } from './event-queue.js';
import { type ChannelOptions, GrpcChannel } from './grpc-channel.js';
import { KeySpace } from './key-space.js';
import { fromEtcdKeyValue } from './key-values.js';
import { EtcdKvClient } from './kv-client.js';
import type { EtcdKeyValue, RangeRequest, RangeResponse } from './kv-messages.js';
import { ReadBatcher } from './read-batcher.js';
import { isCompactedRevision, isFutureRevision } from './revision-errors.js';
import { DEFAULT_COMPACT_INTERVAL_MS, ScheduledCompactor } from './scheduled-compactor.js';
import { openWatchStream } from './watch-stream.js';

/** The channel's options: TLS material for https:// members, the call deadline and the dead-member detection. */
export interface EtcdBackendOptions extends ChannelOptions {
  /**
   * Client URLs of the cluster's members, as kube-apiserver's --etcd-servers takes them (e.g.
   * https://10.0.0.1:2379); calls go to one member at a time and move to the next when it fails.
   */
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
 * Every call and watch goes over one HTTP/2 connection through GrpcChannel, a client of only the calls made
 * here, as a general gRPC client costs the server more than twice the CPU per call. The connection opens with
 * the first call, and an unreachable etcd surfaces as its error. The bytes passed to create/update are sent as
 * they are and returned as the KeyValue's value.
 */
export function createEtcdBackend(options: EtcdBackendOptions): Backend {
  if (options.endpoints.length === 0) throw new RangeError('createEtcdBackend: at least one endpoint is required');
  const intervalMs = options.compactIntervalMs ?? DEFAULT_COMPACT_INTERVAL_MS;
  if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new RangeError(`compactIntervalMs must be >= 0, got ${intervalMs}`);
  const keys = new KeySpace(options.prefix);
  const channel = new GrpcChannel(options.endpoints, {
    tls: options.tls,
    callTimeoutMs: options.callTimeoutMs,
    dialTimeoutMs: options.dialTimeoutMs,
    keepaliveTimeMs: options.keepaliveTimeMs,
    keepaliveTimeoutMs: options.keepaliveTimeoutMs,
    transport: options.transport,
  });
  const kv = new EtcdKvClient(channel);
  const pointReads = new ReadBatcher(kv);
  const compaction = new CompactedRevisionTracker();
  const watchers = new Set<EventQueue>();
  /** Probes only need a valid key inside our key space; its value is never read. */
  const probeKey = Buffer.from(keys.prefix === '' ? '/' : keys.prefix);
  let closed = false;

  function open(): void {
    if (closed) throw new Error('etcd backend is closed');
  }

  async function latestRevision(): Promise<number> {
    return (await kv.range({ key: probeKey, countOnly: true })).revision;
  }

  async function isReadable(revision: number): Promise<boolean> {
    try {
      await kv.range({ key: probeKey, revision, countOnly: true });
      return true;
    } catch (error) {
      if (isCompactedRevision(error)) return false;
      throw error;
    }
  }

  async function oldestReadable(): Promise<number> {
    return compaction.find(await latestRevision(), isReadable);
  }

  /** A range at the latest revision, or at `revision`, with etcd's history errors translated. */
  async function rangeAt(request: RangeRequest, revision: number | undefined): Promise<RangeResponse> {
    if (revision === undefined) return kv.range(request);
    try {
      return await kv.range({ ...request, revision });
    } catch (error) {
      if (isCompactedRevision(error)) throw new CompactedError(revision, await oldestReadable());
      if (isFutureRevision(error)) throw new FutureRevisionError(revision, await latestRevision());
      throw error;
    }
  }

  /** Why a guarded write did not apply, from the value its failure branch read. */
  function guardFailure(key: string, current: EtcdKeyValue | undefined): Error {
    return current === undefined ? new KeyNotFoundError(key) : new RevisionConflictError(key, fromEtcdKeyValue(keys, current));
  }

  function deletedValue(key: string, previous: EtcdKeyValue | undefined, revision: number): KeyValue {
    if (previous === undefined) throw new KeyNotFoundError(key);
    return { key, value: previous.value, createRevision: previous.createRevision, modRevision: revision };
  }

  const backend: Backend = {
    name: 'etcd',

    async currentRevision() {
      open();
      return latestRevision();
    },

    async compactedRevision() {
      open();
      return oldestReadable();
    },

    async get(key, opts) {
      open();
      const revision = requestedRevision(opts?.revision);
      if (revision === undefined) {
        const read = await pointReads.read(keys.toEtcd(key));
        return read.kv === undefined ? { revision: read.revision } : { revision: read.revision, kv: fromEtcdKeyValue(keys, read.kv) };
      }
      const response = await rangeAt({ key: keys.toEtcd(key) }, revision);
      const found = response.kvs[0];
      return found === undefined ? { revision } : { revision, kv: fromEtcdKeyValue(keys, found) };
    },

    async list(prefix, opts = {}) {
      open();
      const revision = requestedRevision(opts.revision);
      const limit = opts.limit ?? 0;
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      const range = keys.range(prefix, opts.startKey);
      const response = await rangeAt({ key: range.key, rangeEnd: range.range_end, limit }, revision);
      const kvs = response.kvs.map((found) => fromEtcdKeyValue(keys, found));
      return {
        revision: revision ?? response.revision,
        kvs,
        more: response.more,
        // etcd counts every key in the range, those beyond the limit included.
        remaining: response.count - kvs.length,
      };
    },

    async count(prefix) {
      open();
      const range = keys.range(prefix);
      return (await kv.range({ key: range.key, rangeEnd: range.range_end, countOnly: true })).count;
    },

    async create(key, value) {
      open();
      const etcdKey = keys.toEtcd(key);
      const response = await kv.txn({
        compare: [{ key: etcdKey, target: 'create', equals: 0 }],
        success: [{ put: { key: etcdKey, value } }],
      });
      if (!response.succeeded) throw new KeyExistsError(key);
      return { key, value, createRevision: response.revision, modRevision: response.revision };
    },

    async update(key, value, expectedModRevision) {
      open();
      const etcdKey = keys.toEtcd(key);
      // mod_revision == 0 would match an absent key and turn the update into a create.
      if (!Number.isSafeInteger(expectedModRevision) || expectedModRevision < 1) {
        throw guardFailure(key, (await kv.range({ key: etcdKey })).kvs[0]);
      }
      const response = await kv.txn({
        compare: [{ key: etcdKey, target: 'mod', equals: expectedModRevision }],
        success: [{ put: { key: etcdKey, value, prevKv: true } }],
        failure: [{ range: { key: etcdKey } }],
      });
      if (!response.succeeded) throw guardFailure(key, response.responses[0]?.range?.kvs[0]);
      const previous = response.responses[0]?.put?.prevKv;
      if (previous === undefined) throw new Error(`etcd returned no previous value for the update of ${key}`);
      return { key, value, createRevision: previous.createRevision, modRevision: response.revision };
    },

    async delete(key, expectedModRevision) {
      open();
      const etcdKey = keys.toEtcd(key);
      if (expectedModRevision === undefined) {
        const response = await kv.deleteRange({ key: etcdKey, prevKv: true });
        return deletedValue(key, response.prevKvs[0], response.revision);
      }
      if (!Number.isSafeInteger(expectedModRevision) || expectedModRevision < 1) {
        throw guardFailure(key, (await kv.range({ key: etcdKey })).kvs[0]);
      }
      const response = await kv.txn({
        compare: [{ key: etcdKey, target: 'mod', equals: expectedModRevision }],
        success: [{ deleteRange: { key: etcdKey, prevKv: true } }],
        failure: [{ range: { key: etcdKey } }],
      });
      if (!response.succeeded) throw guardFailure(key, response.responses[0]?.range?.kvs[0]);
      return deletedValue(key, response.responses[0]?.deleteRange?.prevKvs[0], response.revision);
    },

    async deleteAndPut(key, expectedModRevision, record) {
      open();
      const etcdKey = keys.toEtcd(key);
      const put = { put: { key: keys.toEtcd(record.key), value: record.value } };
      // etcd guards compare for equality only: an unguarded call guards on the revision it reads, and reads again
      // when another write came between.
      for (;;) {
        const expected = expectedModRevision ?? (await kv.range({ key: etcdKey })).kvs[0]?.modRevision;
        if (expected === undefined || !Number.isSafeInteger(expected) || expected < 1) {
          throw guardFailure(key, (await kv.range({ key: etcdKey })).kvs[0]);
        }
        const response = await kv.txn({
          compare: [{ key: etcdKey, target: 'mod', equals: expected }],
          success: [{ deleteRange: { key: etcdKey, prevKv: true } }, put],
          failure: [{ range: { key: etcdKey } }],
        });
        if (response.succeeded) return deletedValue(key, response.responses[0]?.deleteRange?.prevKvs[0], response.revision);
        const current = response.responses[0]?.range?.kvs[0];
        if (expectedModRevision !== undefined || current === undefined) throw guardFailure(key, current);
      }
    },

    async watch(prefix, afterRevision) {
      open();
      if (!Number.isSafeInteger(afterRevision) || afterRevision < 0) {
        throw new RangeError(`afterRevision must be a non-negative integer, got ${afterRevision}`);
      }
      if (afterRevision + 1 < compaction.known) throw new CompactedError(afterRevision, compaction.known);
      const { queue, createdAtRevision } = await openWatchStream({
        channel,
        keys,
        prefix,
        afterRevision,
        resumeTimeoutMs: channel.callTimeoutMs,
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
          if (!(await isReadable(start))) throw new CompactedError(afterRevision, await oldestReadable());
        } catch (error) {
          queue.stop();
          throw error;
        }
      }
      return queue;
    },

    async compact(revision) {
      open();
      if (!Number.isSafeInteger(revision)) throw new RangeError(`revision must be an integer, got ${revision}`);
      if (revision <= compaction.known) return;
      try {
        await kv.compact(revision);
      } catch (error) {
        // Compacting at or below etcd's compact revision (another server may have compacted) changes nothing.
        if (isCompactedRevision(error)) return;
        if (isFutureRevision(error)) throw new FutureRevisionError(revision, await latestRevision());
        throw error;
      }
      compaction.observe(revision);
    },

    async close() {
      if (closed) return;
      closed = true;
      compactor?.stop();
      for (const watcher of [...watchers]) watcher.stop();
      channel.close();
    },
  };

  const compactor =
    intervalMs === 0
      ? undefined
      : new ScheduledCompactor({
          intervalMs,
          txn: async (request) => {
            open();
            return kv.txn(request);
          },
          compact: (revision) => backend.compact(revision),
          onError: (error) => console.error(`etcd backend ${options.endpoints.join(',')}: scheduled compaction failed: ${String(error)}`),
        });
  compactor?.start();
  return instrumented(backend, kv, probeKey);
}

/**
 * The backend with its calls counted per operation for /metrics, and kube-apiserver's etcd health check: a
 * linearizable read of one key, which needs the member to have a leader and a quorum.
 */
function instrumented(backend: Backend, kv: EtcdKvClient, probeKey: Buffer): Backend {
  const metrics = new RequestMetrics();
  return {
    ...backend,
    currentRevision: () => metrics.measure('currentRevision', undefined, () => unavailable(backend.currentRevision())),
    compactedRevision: () => metrics.measure('compactedRevision', undefined, () => unavailable(backend.compactedRevision())),
    get: (key, opts) => metrics.measure('get', key, () => unavailable(backend.get(key, opts))),
    list: (prefix, opts) => metrics.measure('list', prefix, () => unavailable(backend.list(prefix, opts))),
    count: (prefix) => metrics.measure('count', prefix, () => unavailable(backend.count(prefix))),
    create: (key, value) => metrics.measure('create', key, () => unavailable(backend.create(key, value))),
    update: (key, value, expected) => metrics.measure('update', key, () => unavailable(backend.update(key, value, expected))),
    delete: (key, expected) => metrics.measure('delete', key, () => unavailable(backend.delete(key, expected))),
    deleteAndPut: (key, expected, record) =>
      metrics.measure('deleteAndPut', key, () => unavailable(backend.deleteAndPut(key, expected, record))),
    watch: (prefix, afterRevision) => metrics.measure('watch', prefix, () => unavailable(backend.watch(prefix, afterRevision))),
    compact: (revision) => metrics.measure('compact', undefined, () => unavailable(backend.compact(revision))),
    async checkHealth(timeoutMs) {
      await kv.range({ key: probeKey, countOnly: true }, timeoutMs);
    },
    requestMetrics: () => metrics.snapshot(),
  };
}

/** Failures of etcd itself (unreachable, past the deadline, outcome unknown) as the storage contract names them. */
async function unavailable<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isContractAnswer(error) || !(error instanceof Error)) throw error;
    throw new StorageUnavailableError(error.message, error);
  }
}

/** Revision 0 or absent means the latest, as in etcd. */
function requestedRevision(revision: number | undefined): number | undefined {
  if (revision === undefined || revision === 0) return undefined;
  if (!Number.isSafeInteger(revision) || revision < 0) throw new RangeError(`revision must be a non-negative integer, got ${revision}`);
  return revision;
}
