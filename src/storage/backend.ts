/**
 * The storage contract: a revisioned key-value store with the guarantees etcd gives Kubernetes.
 * It knows nothing about Kubernetes objects; keys are opaque strings and values opaque bytes.
 *
 * - One global revision. It starts at 1 for an empty store and grows by exactly one per successful write
 *   (create, update or delete). Failed writes do not consume a revision.
 * - `createRevision` is the revision at which the key was created; `modRevision` the revision of its last write.
 * - Reads at the latest revision report the store's current revision alongside the data.
 * - `watch(prefix, afterRevision)` delivers every change with revision > afterRevision whose key starts with
 *   prefix, in revision order, exactly once; deletes carry the previous value. A list followed by a watch from
 *   the list's revision never misses or duplicates an event.
 * - After `compact(rev)`, reads at revisions < rev and watches from afterRevision < rev - 1 fail with
 *   CompactedError.
 */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  readonly createRevision: number;
  readonly modRevision: number;
}

export type WatchEventType = 'put' | 'delete';

export interface WatchEvent {
  readonly type: WatchEventType;
  /** For a put: the new value. For a delete: the key with the deletion's revision as modRevision and the last value. */
  readonly kv: KeyValue;
  /** The value before this event; absent for a create. */
  readonly prevKv?: KeyValue;
  /** The revision at which this event happened (equals kv.modRevision). */
  readonly revision: number;
}

export interface GetResult {
  readonly revision: number;
  readonly kv?: KeyValue;
}

export interface ListOptions {
  /** Read as of this revision instead of the latest. Must not be compacted or in the future. */
  readonly revision?: number;
  /** Start listing at this key (inclusive); used for paging. */
  readonly startKey?: string;
  /** At most this many items; 0 or absent = no limit. */
  readonly limit?: number;
  /**
   * False when the caller does not read `remaining` (a selector's list, which reports no remainingItemCount): a
   * backend may then leave it 0, sparing a count of the rest of the range. `more` stays exact either way.
   */
  readonly countRemaining?: boolean;
}

export interface ListResult {
  readonly revision: number;
  /** In ascending key order. */
  readonly kvs: KeyValue[];
  /** True when more keys matched than `limit` allowed. */
  readonly more: boolean;
  /** Number of keys after the returned ones that match (like etcd's count minus returned). */
  readonly remaining: number;
}

export interface Watcher extends AsyncIterable<WatchEvent> {
  /** Stops the watch; pending iteration ends. */
  stop(): void;
  /**
   * The next event if one is already buffered, taken without a promise; undefined when the iterator would have to
   * wait. Consumers that drain a backlog (an informer catching up) use it between awaits of the iterator, never
   * while a `next()` is pending.
   */
  poll?(): WatchEvent | undefined;
}

/** A value written together with another change (see Backend.deleteAndPut). */
export interface PutRecord {
  readonly key: string;
  readonly value: Uint8Array;
}

export interface Backend {
  readonly name: string;
  currentRevision(): Promise<number>;
  /** The oldest revision still readable (compact revision). Reads below it fail with CompactedError. */
  compactedRevision(): Promise<number>;
  get(key: string, opts?: { revision?: number }): Promise<GetResult>;
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /** Number of keys under prefix at the latest revision. */
  count(prefix: string): Promise<number>;
  /** Create-if-absent. Throws KeyExistsError if the key exists. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /** Compare-and-swap on modRevision. Throws NotFoundError if absent, ConflictError (with current) on mismatch. */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue>;
  /**
   * Deletes the key, guarded by modRevision when given. Returns the deleted value with modRevision set to the
   * deletion's revision. Throws NotFoundError or ConflictError.
   */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  /**
   * Deletes the key exactly as `delete` does and, in the same transaction, writes `record` (created, or replacing
   * the value it has): both happen or neither does, also across a crash. The archive keeps removed objects this
   * way. On etcd both share the transaction's revision; the log backends give the record the next revision. The
   * deleted value is returned as `delete` returns it.
   */
  deleteAndPut(key: string, expectedModRevision: number | undefined, record: PutRecord): Promise<KeyValue>;
  /**
   * Starts a watch immediately (events are buffered from the call on). Throws CompactedError synchronously-ish
   * (the promise rejects) when afterRevision + 1 is older than the compacted revision.
   */
  watch(prefix: string, afterRevision: number): Promise<Watcher>;
  /** Discards history below revision. */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
  /**
   * For stores outside this process (etcd): resolves when the store answers a linearizable read within
   * timeoutMs, as kube-apiserver's `etcd` health check asks; /livez and /readyz report it.
   */
  checkHealth?(timeoutMs: number): Promise<void>;
  /** For stores outside this process: each operation's requests, failures and latencies, for /metrics. */
  requestMetrics?(): readonly OperationMetrics[];
}

/** One operation's figures on one resource type: requests, failures, and a latency histogram over the latency buckets of request-metrics.ts. */
export interface OperationMetrics {
  readonly operation: string;
  /** The resource (group-resource, e.g. "deployments.apps") the calls were about; empty for none. */
  readonly type: string;
  readonly requests: number;
  readonly failures: number;
  /** Requests at or under each bucket's bound (cumulative, as Prometheus has them). */
  readonly bucketCounts: readonly number[];
  readonly sumSeconds: number;
}
