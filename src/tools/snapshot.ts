import { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { apiVersionOf, type KubeObject, type OwnerReference, parseApiVersion } from '../api/types.js';
import { getIfPresent } from '../client/get-if-present.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import { type Entry, entryOf } from './object-ref.js';
import { preferredResources, resourceKey, watchedByGarbageCollector } from './preferred-resources.js';

/** A resource whose objects could not be listed: every report built on the snapshot says it is incomplete. */
export interface ListFailure {
  /** Qualified resource with version, e.g. "widgets.v1.example.com". */
  readonly resource: string;
  readonly error: string;
}

const PAGE_SIZE = 500;

export function resourceRefOf(info: ResourceInfo): ResourceRef {
  return { group: info.group, version: info.version, resource: info.plural };
}

function versionedName(info: ResourceInfo): string {
  return `${info.plural}.${info.version}${info.group === '' ? '' : `.${info.group}`}`;
}

function objectKey(group: string, plural: string, namespace: string | undefined, name: string): string {
  return `${group}\u0000${plural}\u0000${namespace ?? ''}\u0000${name}`;
}

async function listAll(client: ApiClient, info: ResourceInfo): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  let token: string | undefined;
  do {
    const page = await client.list(resourceRefOf(info), undefined, {
      limit: PAGE_SIZE,
      ...(token === undefined ? {} : { continue: token }),
    });
    items.push(...page.items);
    token = page.metadata.continue === '' ? undefined : page.metadata.continue;
  } while (token !== undefined);
  return items;
}

/**
 * Every deletable object in the cluster, read once through the public API (as kubectl-tree does), with the
 * indexes the reports need: by uid, by owner uid, and by the coordinates an owner reference resolves to.
 */
export class ClusterSnapshot {
  readonly resources: readonly ResourceInfo[];
  readonly failures: readonly ListFailure[];
  private readonly client: ApiClient;
  private readonly all: Entry[] = [];
  private readonly uids = new Map<string, Entry>();
  private readonly dependents = new Map<string, Entry[]>();
  private readonly byCoordinates = new Map<string, Entry>();
  private readonly listed = new Set<string>();
  private readonly kinds = new Map<string, ResourceInfo>();
  private readonly fetched = new Map<string, Promise<Entry | undefined>>();

  private constructor(client: ApiClient, resources: readonly ResourceInfo[], failures: ListFailure[]) {
    this.client = client;
    this.resources = resources;
    this.failures = failures;
    for (const info of resources) {
      const key = `${apiVersionOf(info.group, info.version)}\u0000${info.kind}`;
      if (!this.kinds.has(key)) this.kinds.set(key, info);
    }
  }

  /** `resources`: what the caller's own discover() just returned, so discovery is not done twice. */
  static async load(client: ApiClient, discovered?: readonly ResourceInfo[]): Promise<ClusterSnapshot> {
    const resources = discovered ?? (await client.discover());
    // A group-version discovery could not read may hold anything: the report must say it could not look there.
    const failures: ListFailure[] = client.lastDiscoveryErrors.map((f) => ({ resource: f.groupVersion, error: f.error.message }));
    const listable = preferredResources(resources, ['list', 'delete']);
    const lists = await Promise.all(
      listable.map(async (info) => {
        try {
          return { info, items: await listAll(client, info) };
        } catch (err) {
          // A 503 from an unavailable aggregated API, a 403, …: the rest of the cluster is still worth reporting on.
          if (!(err instanceof StatusError)) throw err;
          failures.push({ resource: versionedName(info), error: err.message });
          return { info, items: [] };
        }
      }),
    );
    const snapshot = new ClusterSnapshot(client, resources, failures);
    for (const { info, items } of lists) {
      if (!failures.some((f) => f.resource === versionedName(info))) snapshot.listed.add(resourceKey(info));
      const apiVersion = apiVersionOf(info.group, info.version);
      for (const item of items) snapshot.add(entryOf(item, info, apiVersion));
    }
    return snapshot;
  }

  private add(entry: Entry): void {
    this.all.push(entry);
    const meta = entry.object.metadata;
    this.byCoordinates.set(objectKey(entry.info.group, entry.info.plural, meta.namespace, meta.name ?? ''), entry);
    if (meta.uid !== undefined) this.uids.set(meta.uid, entry);
    // Events are never dependents in the collector's graph (R4.5).
    if (!watchedByGarbageCollector(entry.info)) return;
    for (const ref of meta.ownerReferences ?? []) {
      const list = this.dependents.get(ref.uid);
      if (list === undefined) this.dependents.set(ref.uid, [entry]);
      else list.push(entry);
    }
  }

  entries(): readonly Entry[] {
    return this.all;
  }

  byUid(uid: string): Entry | undefined {
    return this.uids.get(uid);
  }

  /** Objects with an ownerReference to this uid, whatever its other coordinates: the collector links by uid (R4.1). */
  dependentsOf(uid: string): readonly Entry[] {
    return this.dependents.get(uid) ?? [];
  }

  /** The GC's REST mapping of an owner reference (apiVersion + kind, any served version); undefined when unmapped. */
  resourceFor(apiVersion: string, kind: string): ResourceInfo | undefined {
    return this.kinds.get(`${apiVersion}\u0000${kind}`);
  }

  /** The object a name-based read would return (R4.26d): from the snapshot when listed, otherwise read live. */
  async lookup(info: ResourceInfo, namespace: string | undefined, name: string): Promise<Entry | undefined> {
    const ns = info.namespaced ? namespace : undefined;
    const key = objectKey(info.group, info.plural, ns, name);
    if (this.listed.has(resourceKey(info))) return this.byCoordinates.get(key);
    let pending = this.fetched.get(key);
    if (pending === undefined) {
      pending = this.fetch(info, ns, name);
      this.fetched.set(key, pending);
    }
    return pending;
  }

  private async fetch(info: ResourceInfo, namespace: string | undefined, name: string): Promise<Entry | undefined> {
    const object = await getIfPresent(this.client, resourceRefOf(info), namespace, name);
    return object === undefined ? undefined : entryOf(object, info, apiVersionOf(info.group, info.version));
  }

  /** The served resource of an owner reference's group and kind, in any version (for naming unresolved owners). */
  resourceOfReference(ref: OwnerReference): ResourceInfo | undefined {
    const exact = this.resourceFor(ref.apiVersion, ref.kind);
    if (exact !== undefined) return exact;
    const { group } = parseApiVersion(ref.apiVersion);
    return this.resources.find((info) => info.group === group && info.kind === ref.kind);
  }
}
