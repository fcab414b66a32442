import { StatusError } from '../../api/errors.js';
import type { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../api/finalizers.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { type KubeObject, type OwnerReference, parseApiVersion } from '../../api/types.js';
import { getIfPresent } from '../../client/get-if-present.js';
import type { ApiClient, DeleteResponse, ResourceRef } from '../../client/interface.js';
import type { DeleteOptions, PropagationPolicy } from '../../api/delete-options.js';
import { createRestMapper } from '../../discovery/rest-mapper/create.js';
import { isAmbiguousError, isNoMatchError } from '../../discovery/rest-mapper/errors.js';
import type { RestMapper, RestMapping } from '../../discovery/rest-mapper/types.js';
import type { FINALIZER_POPULATING_GRACEFUL_DELETION } from '../../registry/grace-propagation.js';
import type { ObjectIdentity } from './graph.js';

/** A reference the REST mapper cannot resolve: retried with backoff, forever (R4.26b, debt D7). */
export class RestMappingError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(`unable to map ${apiVersion}, Kind=${kind} to a resource`);
    this.name = 'RestMappingError';
  }
}

/** A namespaced kind addressed without a namespace: a cluster-scoped object's reference to a namespaced owner. */
export class NamespacedOwnerOfClusterScopedObjectError extends Error {
  constructor(id: ObjectIdentity) {
    super(`${id.apiVersion}/${id.kind} ${id.name} is namespaced but was referenced without a namespace`);
    this.name = 'NamespacedOwnerOfClusterScopedObjectError';
  }
}

/** A served resource and the reference the client addresses it by, shared by every call. */
interface Mapped {
  readonly info: ResourceInfo;
  readonly ref: ResourceRef;
}

/**
 * Every API call the garbage collector makes (operations.go). References are resolved by the REST mapper built
 * from discovery (as apiResource does with RESTMapping(groupKind, version)); the mapper is rebuilt by the collector
 * whenever the served resources change.
 */
export class GcOperations {
  private readonly client: ApiClient;
  private mapper: RestMapper = createRestMapper([]);
  /** The served resources by "group/version/plural", to find the description of a mapped resource. */
  private byResource = new Map<string, ResourceInfo>();
  /**
   * apiVersion → kind → what the mapper answered: every call resolves a reference, so each is asked once per
   * discovery. Only successes are kept, so references to unknown kinds cannot grow it past the served resources.
   */
  private resolved = new Map<string, Map<string, Mapped>>();

  constructor(client: ApiClient) {
    this.client = client;
  }

  setResources(resources: readonly ResourceInfo[]): void {
    this.mapper = createRestMapper(resources);
    this.byResource = new Map(resources.map((info) => [`${info.group}/${info.version}/${info.plural}`, info]));
    this.resolved = new Map();
  }

  private mapped(apiVersion: string, kind: string): Mapped {
    const found = this.resolved.get(apiVersion)?.get(kind);
    if (found !== undefined) return found;
    const mapped = this.resolve(apiVersion, kind);
    let kinds = this.resolved.get(apiVersion);
    if (kinds === undefined) {
      kinds = new Map();
      this.resolved.set(apiVersion, kinds);
    }
    kinds.set(kind, mapped);
    return mapped;
  }

  private resolve(apiVersion: string, kind: string): Mapped {
    const { group, version } = parseApiVersion(apiVersion);
    let mapping: RestMapping;
    try {
      mapping = this.mapper.restMapping({ group, kind }, version);
    } catch (err) {
      if (isNoMatchError(err) || isAmbiguousError(err)) throw new RestMappingError(apiVersion, kind);
      throw err;
    }
    const ref: ResourceRef = mapping.resource;
    const info = this.byResource.get(`${ref.group}/${ref.version}/${ref.resource}`);
    if (info === undefined) throw new RestMappingError(apiVersion, kind);
    return { info, ref };
  }

  resourceFor(apiVersion: string, kind: string): ResourceInfo {
    return this.mapped(apiVersion, kind).info;
  }

  private namespaceFor(info: ResourceInfo, namespace: string): string | undefined {
    return info.namespaced ? namespace : undefined;
  }

  /** Live read of an object; undefined when it does not exist. */
  async getObject(id: ObjectIdentity): Promise<KubeObject | undefined> {
    const { info, ref } = this.mapped(id.apiVersion, id.kind);
    if (info.namespaced && id.namespace === '') throw new NamespacedOwnerOfClusterScopedObjectError(id);
    return getIfPresent(this.client, ref, this.namespaceFor(info, id.namespace), id.name);
  }

  /**
   * DELETE with uid (and, when given, resourceVersion) preconditions (R4.30). Not an async function: a cascade
   * calls it once per dependent, and the client's promise needs no wrapping in another.
   */
  deleteObject(
    id: ObjectIdentity,
    resourceVersion: string | undefined,
    policy: PropagationPolicy,
    owners: readonly OwnerReference[] = [],
    gracePeriodSeconds?: number,
  ): Promise<DeleteResponse> {
    const { info, ref } = this.mapped(id.apiVersion, id.kind);
    const preconditions = resourceVersion === undefined ? { uid: id.uid } : { uid: id.uid, resourceVersion };
    const opts: DeleteOptions = { propagationPolicy: policy, preconditions };
    if (gracePeriodSeconds !== undefined) opts.gracePeriodSeconds = gracePeriodSeconds;
    // The archive records the deletion as this cascade's (issue 28).
    return this.client.delete(ref, this.namespaceFor(info, id.namespace), id.name, opts, { reason: 'Cascade', owners });
  }

  /**
   * Removes the references to the given owner uids from a dependent (R4.27, R4.34): a strategic merge patch with
   * `$patch: delete` entries and the item's uid as a precondition; custom resources take no strategic merge
   * patch (415), so they get a JSON merge patch of the remaining references guarded by resourceVersion.
   */
  async removeOwnerReferences(item: ObjectIdentity, ownerUids: readonly string[], live?: KubeObject): Promise<void> {
    const { info, ref } = this.mapped(item.apiVersion, item.kind);
    const namespace = this.namespaceFor(info, item.namespace);
    if (info.custom !== true) {
      const patch = { metadata: { uid: item.uid, ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })) } };
      await this.client.patch(ref, namespace, item.name, 'strategic', patch);
      return;
    }
    const current = live ?? (await this.client.get(ref, namespace, item.name));
    const remaining = (current.metadata.ownerReferences ?? []).filter((r) => !ownerUids.includes(r.uid));
    await this.client.patch(ref, namespace, item.name, 'merge', {
      metadata: { resourceVersion: current.metadata.resourceVersion, ownerReferences: remaining.length > 0 ? remaining : null },
    });
  }

  /** R4.28: stop the item's references from blocking their owners, to break foreground cycles. */
  async unblockOwnerReferences(item: ObjectIdentity, live: KubeObject): Promise<void> {
    const { info, ref } = this.mapped(item.apiVersion, item.kind);
    const refs: OwnerReference[] = (live.metadata.ownerReferences ?? []).map((r) =>
      r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
    );
    await this.client.patch(ref, this.namespaceFor(info, item.namespace), item.name, 'merge', {
      metadata: { resourceVersion: live.metadata.resourceVersion, uid: item.uid, ownerReferences: refs },
    });
  }

  /** Removes one GC finalizer from the object, re-reading on conflict (R4.31, R4.35). NotFound means done. */
  async removeFinalizer(
    id: ObjectIdentity,
    finalizer: typeof FINALIZER_FOREGROUND | typeof FINALIZER_ORPHAN | typeof FINALIZER_POPULATING_GRACEFUL_DELETION,
  ): Promise<void> {
    const { info, ref } = this.mapped(id.apiVersion, id.kind);
    const namespace = this.namespaceFor(info, id.namespace);
    for (;;) {
      const current = await this.getObject(id);
      if (current === undefined || current.metadata.uid !== id.uid) return;
      const finalizers = current.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return;
      try {
        await this.client.patch(ref, namespace, id.name, 'merge', {
          metadata: { resourceVersion: current.metadata.resourceVersion, finalizers: finalizers.filter((f) => f !== finalizer) },
        });
        return;
      } catch (err) {
        if (err instanceof StatusError && err.code === 409) continue;
        if (err instanceof StatusError && err.code === 404) return;
        throw err;
      }
    }
  }

  /** Creates a core/v1 Event about an object (the collector's event recorder). */
  async recordEvent(involved: ObjectIdentity, type: 'Normal' | 'Warning', reason: string, message: string, now: Date): Promise<void> {
    const namespace = involved.namespace === '' ? 'default' : involved.namespace;
    const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    await this.client.create({ group: '', version: 'v1', resource: 'events' }, namespace, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { generateName: `${involved.name}.`, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.name,
        namespace: involved.namespace || undefined,
        uid: involved.uid,
      },
      reason,
      message,
      type,
      source: { component: 'garbage-collector-controller' },
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
      reportingComponent: 'garbage-collector-controller',
    });
  }
}
