import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeList, KubeObject, Status } from '../api/types.js';
import type { DeleteOptions } from '../api/delete-options.js';
import type { DeletionCause } from '../api/deletion-cause.js';
import type { ObjectEvent } from '../api/types.js';
import type { DiscoveryFailure } from './http-discovery.js';

/**
 * How controllers reach the API (controller-runtime's Reader/Writer split, plus discovery and watch). Every
 * failure is a StatusError carrying the Kubernetes code and reason, whichever transport is used, so controller
 * code tests `err.code === 404` the same way against the in-process and the HTTP client.
 */

/** A resource as controllers address it. */
export interface ResourceRef {
  readonly group: string;
  readonly version: string;
  /** Plural resource name. */
  readonly resource: string;
}

export interface ListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
}

export interface WatchOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Start after this resourceVersion; a compacted one yields an ERROR event with code 410. */
  readonly resourceVersion?: string;
  readonly allowWatchBookmarks?: boolean;
}

/** A running watch: iterate events until it ends (server timeout, error event, or stop()). */
export interface WatchStream extends AsyncIterable<ObjectEvent> {
  stop(): void;
  /**
   * The next event if it is ready without waiting, undefined otherwise; only streams that can tell (the in-process
   * client's) have it. A consumer draining a backlog takes events this way between awaits, saving a promise per
   * event, and never while a `next()` is pending.
   */
  poll?(): ObjectEvent | undefined;
}

export type PatchType = 'json' | 'merge' | 'strategic';

/** The options of a server-side apply (PatchOptions of an apply patch, R10.7–R10.10). */
export interface ApplyOptions {
  /** Required: the manager the applied fields are recorded under. */
  readonly fieldManager: string;
  /** Take the fields other managers own instead of failing with a 409 Conflict. */
  readonly force?: boolean;
  /** dryRun=All: everything but the write. */
  readonly dryRun?: boolean;
}

export interface DeleteResponse {
  readonly code: number;
  readonly body: KubeObject | Status;
}

export interface ApiClient {
  /** Every resource the server serves right now (built-ins, custom resources, aggregated APIs). */
  discover(): Promise<readonly ResourceInfo[]>;
  /**
   * Group-versions the latest discover() could not read (an unavailable aggregated API): discover() still returns
   * everything else, as client-go's discovery does, and callers that must be complete (namespace deletion) check this.
   */
  readonly lastDiscoveryErrors: readonly DiscoveryFailure[];
  /**
   * Calls `listener` whenever the set of served resources changes, where the transport can tell (the in-process
   * client can; over HTTP, callers re-read discovery periodically). Returns the unsubscribe function.
   */
  onDiscoveryChange?(listener: () => void): () => void;
  /** `subresource` "scale" reads the object's autoscaling/v1 Scale (the HPA controller's scale client). */
  get(ref: ResourceRef, namespace: string | undefined, name: string, subresource?: string): Promise<KubeObject>;
  list(ref: ResourceRef, namespace: string | undefined, opts?: ListOptions): Promise<KubeList>;
  watch(ref: ResourceRef, namespace: string | undefined, opts?: WatchOptions): Promise<WatchStream>;
  /** `subresource` "binding" on pods POSTs a Binding (the scheduler's write); the answer is then the bound pod. */
  create(ref: ResourceRef, namespace: string | undefined, obj: KubeObject, subresource?: string): Promise<KubeObject>;
  /** `subresource` "scale" writes an autoscaling/v1 Scale (its spec.replicas) to the object named by its metadata. */
  update(ref: ResourceRef, namespace: string | undefined, obj: KubeObject, subresource?: string): Promise<KubeObject>;
  patch(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown): Promise<KubeObject>;
  /**
   * Server-side apply of `config` (a full configuration with apiVersion, kind and metadata.name), creating the
   * object when it is missing: the `application/apply-patch+yaml` PATCH.
   */
  apply(ref: ResourceRef, namespace: string | undefined, config: KubeObject, opts: ApplyOptions): Promise<KubeObject>;
  /**
   * `cause` says why a controller deletes (the archive records it); clients outside the server cannot send one, so
   * only the in-process client passes it on.
   */
  delete(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    opts?: DeleteOptions,
    cause?: DeletionCause,
  ): Promise<DeleteResponse>;
  /** DELETE on a collection: every item matching the selectors, each with the same options (R2.39). */
  deleteCollection(
    ref: ResourceRef,
    namespace: string | undefined,
    listOpts?: ListOptions,
    opts?: DeleteOptions,
    cause?: DeletionCause,
  ): Promise<KubeList>;
}
