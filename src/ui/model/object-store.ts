import { isObject, type KubeObject } from '../../api/types.js';
import type { ForbiddenResource, StreamEvent, StreamResource } from './stream-protocol.js';

/** An object with the resource it was listed from. */
export interface StoredObject {
  readonly resource: StreamResource;
  readonly object: KubeObject;
}

/** The browser's copy of the cluster, kept current from the stream, indexed the ways the graph reads it. */
export class ObjectStore {
  private readonly byResource = new Map<string, StreamResource>();
  private readonly byKind = new Map<string, StreamResource>();
  private readonly objects = new Map<string, StoredObject>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly events = new Map<string, Set<string>>();
  /** Bumped on every change, so views can tell cheaply whether to recompute. */
  revision = 0;

  setResources(resources: readonly StreamResource[]): void {
    for (const r of resources) {
      this.byResource.set(r.key, r);
      if (!this.byKind.has(`${r.group}/${r.kind}`)) this.byKind.set(`${r.group}/${r.kind}`, r);
    }
  }

  private forbidden: readonly ForbiddenResource[] = [];

  /** The resources the page's credentials may not read, with the server's 403 message for each. */
  setForbidden(forbidden: readonly ForbiddenResource[]): void {
    this.forbidden = forbidden;
  }

  forbiddenResources(): readonly ForbiddenResource[] {
    return this.forbidden;
  }

  /** Why objects of this resource cannot be shown, if the credentials may not read it. */
  forbiddenMessage(key: string): string | undefined {
    return this.forbidden.find((f) => f.resource.key === key)?.message;
  }

  resource(key: string): StreamResource | undefined {
    return this.byResource.get(key);
  }

  /** The served resource of an apiVersion's group and a kind, in any version (how owner references are mapped). */
  resourceOfKind(apiVersion: string, kind: string): StreamResource | undefined {
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    return this.byKind.get(`${group}/${kind}`);
  }

  apply(event: StreamEvent): void {
    const resource = this.byResource.get(event.resource);
    const uid = event.object.metadata.uid;
    if (resource === undefined || uid === undefined) return;
    this.revision++;
    const previous = this.objects.get(uid);
    if (previous !== undefined) this.unindex(uid, previous);
    if (event.type === 'DELETED') {
      this.objects.delete(uid);
      return;
    }
    const stored = { resource, object: event.object };
    this.objects.set(uid, stored);
    this.index(uid, stored);
  }

  get(uid: string): StoredObject | undefined {
    return this.objects.get(uid);
  }

  all(): IterableIterator<StoredObject> {
    return this.objects.values();
  }

  find(resourceKey: string, namespace: string | undefined, name: string): StoredObject | undefined {
    for (const o of this.objects.values()) {
      if (o.resource.key === resourceKey && o.object.metadata.name === name && (o.object.metadata.namespace ?? '') === (namespace ?? ''))
        return o;
    }
    return undefined;
  }

  dependentsOf(uid: string): StoredObject[] {
    return [...(this.dependents.get(uid) ?? [])].flatMap((d) => this.objects.get(d) ?? []);
  }

  eventsOf(uid: string): StoredObject[] {
    return [...(this.events.get(uid) ?? [])].flatMap((d) => this.objects.get(d) ?? []);
  }

  private index(uid: string, stored: StoredObject): void {
    // Events are never dependents in the collector's graph (R4.5); they hang off the object they are about.
    const about = involvedUid(stored);
    if (about !== undefined) {
      addTo(this.events, about, uid);
      return;
    }
    for (const ref of stored.object.metadata.ownerReferences ?? []) addTo(this.dependents, ref.uid, uid);
  }

  private unindex(uid: string, stored: StoredObject): void {
    const about = involvedUid(stored);
    if (about !== undefined) this.events.get(about)?.delete(uid);
    for (const ref of stored.object.metadata.ownerReferences ?? []) this.dependents.get(ref.uid)?.delete(uid);
  }
}

function addTo(index: Map<string, Set<string>>, key: string, value: string): void {
  const set = index.get(key);
  if (set === undefined) index.set(key, new Set([value]));
  else set.add(value);
}

/** The object an Event (core/v1 or events.k8s.io) is about. */
export function involvedUid(stored: StoredObject): string | undefined {
  if (stored.resource.kind !== 'Event') return undefined;
  const o = stored.object as KubeObject & { involvedObject?: unknown; regarding?: unknown };
  const about = isObject(o.involvedObject) ? o.involvedObject : isObject(o.regarding) ? o.regarding : undefined;
  return about !== undefined && typeof about.uid === 'string' ? about.uid : undefined;
}
