import { conflict, notFound, OPTIMISTIC_LOCK_ERROR_MSG, StatusError } from '../../../api/errors.js';
import type { ResourceInfo } from '../../../api/resource-info.js';
import { apiVersionOf, isObject, type KubeList, type KubeObject } from '../../../api/types.js';
import type { ApiClient, DeleteResponse, PatchType, ResourceRef, WatchStream } from '../../../client/interface.js';
import { applyJsonMergePatch } from '../../../patch/json-merge-patch.js';
import { deletionFinalizersForGarbageCollection } from '../../../registry/delete-policy.js';
import type { DeleteOptions } from '../../../api/delete-options.js';
import type { ObjectIdentity } from '../graph.js';

/** What a scripted call answers: an error, an object, or a side effect on the store followed by the usual answer. */
export type ScriptedAnswer = StatusError | KubeObject | ((client: FakeGcClient) => void);

type ScriptedVerb = 'get' | 'delete' | 'patch';

/** The deletionTimestamp the fake writes: fixed, so recorded objects compare equal from run to run. */
export const FAKE_DELETION_TIMESTAMP = '2024-01-01T00:00:00Z';

const clone = <T>(value: T): T => structuredClone(value);

function refText(ref: ResourceRef, namespace: string | undefined, name: string): string {
  const where = namespace === undefined ? name : `${namespace}/${name}`;
  return `${apiVersionOf(ref.group, ref.version)}/${ref.resource} ${where}`;
}

function preconditionFailed(ref: ResourceRef, name: string, what: 'UID' | 'ResourceVersion', wanted: string, actual: string): StatusError {
  return conflict(ref, name, `Precondition failed: ${what} in precondition: ${wanted}, ${what} in object meta: ${actual}`);
}

/**
 * The API as the collector's step tests see it (the fake clientset of Kubernetes' garbagecollector_test.go): a
 * store of objects the test puts there, every call the collector makes recorded as one line, and answers
 * scripted per call where a test needs a race or a failure. Nothing here emits watch events: the test feeds
 * the graph builder itself, in the order it wants to examine. Deletion follows the registry's rules closely
 * enough for the collector (R2.6 preconditions, R2.15 GC finalizers, R2.35 removal with the last finalizer);
 * calls the collector never makes fail loudly rather than pretend to work.
 */
export class FakeGcClient implements ApiClient {
  readonly lastDiscoveryErrors = [];
  /** Calls since the last `takeActions()`, as "verb apiVersion/resource [namespace/]name [details]". */
  private actions: string[] = [];
  /** Events the collector created, as "Type Reason message involvedObject{...}". */
  private events: string[] = [];
  private readonly resources: readonly ResourceInfo[];
  private readonly objects = new Map<string, KubeObject>();
  /** The last state of every removed object, by uid: what a watch's DELETED event would carry. */
  private readonly removed = new Map<string, KubeObject>();
  private readonly scripted = new Map<string, ScriptedAnswer[]>();

  constructor(resources: readonly ResourceInfo[]) {
    this.resources = resources;
  }

  async discover(): Promise<readonly ResourceInfo[]> {
    return this.resources;
  }

  /** The resource serving an apiVersion/kind; throws for kinds the fake does not serve (a test mistake). */
  resourceOf(apiVersion: string, kind: string): ResourceInfo {
    const info = this.resources.find((r) => apiVersionOf(r.group, r.version) === apiVersion && r.kind === kind);
    if (info === undefined) throw new Error(`fake client: no resource serves ${apiVersion} ${kind}`);
    return info;
  }

  private infoFor(ref: ResourceRef): ResourceInfo {
    const info = this.resources.find((r) => r.group === ref.group && r.version === ref.version && r.plural === ref.resource);
    if (info === undefined) throw new Error(`fake client: no resource ${apiVersionOf(ref.group, ref.version)}/${ref.resource}`);
    return info;
  }

  private key(ref: ResourceRef, namespace: string | undefined, name: string): string {
    const info = this.infoFor(ref);
    if (info.namespaced && (namespace === undefined || namespace === ''))
      throw new Error(`fake client: ${ref.resource} "${name}" addressed without a namespace`);
    if (!info.namespaced && namespace !== undefined)
      throw new Error(`fake client: cluster-scoped ${ref.resource} "${name}" addressed in namespace "${namespace}"`);
    return `${ref.group}/${ref.resource}/${namespace ?? ''}/${name}`;
  }

  private keyOfObject(obj: KubeObject): { key: string; ref: ResourceRef } {
    const info = this.resourceOf(obj.apiVersion ?? '', obj.kind ?? '');
    const ref: ResourceRef = { group: info.group, version: info.version, resource: info.plural };
    const namespace = info.namespaced ? obj.metadata.namespace : undefined;
    return { key: this.key(ref, namespace, obj.metadata.name ?? ''), ref };
  }

  // ---- The test's side: direct store access, never recorded. ----

  /** Stores an object as the test wrote it (resourceVersion "1" unless it has one). */
  put(obj: KubeObject): void {
    const { key } = this.keyOfObject(obj);
    const stored = clone(obj);
    stored.metadata.resourceVersion ??= '1';
    this.objects.set(key, stored);
    this.removed.delete(stored.metadata.uid ?? '');
  }

  /**
   * Another client writes a stored object through `change`: resourceVersion bumped, and the object removed if the
   * write took the last finalizer of an object being deleted (R2.35).
   */
  modify(id: ObjectIdentity, change: (obj: KubeObject) => void): void {
    const current = this.current(id);
    if (current === undefined) throw new Error(`fake client: ${id.kind} ${id.name} (${id.uid}) is not stored`);
    const { key } = this.keyOfObject(current);
    const before = JSON.stringify(current);
    change(current);
    if (JSON.stringify(current) === before) throw new Error(`fake client: the change to ${id.kind} ${id.name} changed nothing`);
    this.write(key, current);
  }

  /** Another client's DELETE with these options (not recorded): marks or removes the object as the registry would. */
  deleteAsUser(id: ObjectIdentity, opts: DeleteOptions): void {
    const info = this.resourceOf(id.apiVersion, id.kind);
    this.applyDelete(
      { group: info.group, version: info.version, resource: info.plural },
      info.namespaced ? id.namespace : undefined,
      id.name,
      { ...opts, preconditions: { uid: id.uid } },
    );
  }

  /** Removes an object as another client's DELETE without finalizers would. */
  remove(id: ObjectIdentity): void {
    const current = this.current(id);
    if (current === undefined) throw new Error(`fake client: ${id.kind} ${id.name} (${id.uid}) is not stored`);
    this.objects.delete(this.keyOfObject(current).key);
    this.removed.set(current.metadata.uid ?? '', current);
  }

  /** A copy of the stored object with this identity's coordinates and uid, if there is one. */
  current(id: ObjectIdentity): KubeObject | undefined {
    const info = this.resourceOf(id.apiVersion, id.kind);
    const ref: ResourceRef = { group: info.group, version: info.version, resource: info.plural };
    const obj = this.objects.get(this.key(ref, info.namespaced ? id.namespace : undefined, id.name));
    return obj === undefined || obj.metadata.uid !== id.uid ? undefined : clone(obj);
  }

  /** The last state of a removed object (what its DELETED event carries). */
  lastState(uid: string): KubeObject | undefined {
    const obj = this.removed.get(uid);
    return obj === undefined ? undefined : clone(obj);
  }

  /**
   * Answers the next `verb` call on this object with `answer` instead of the store's (once per scripted answer,
   * in order). A function answer runs first and the store then answers as usual: a change racing the call.
   */
  script(verb: ScriptedVerb, id: Pick<ObjectIdentity, 'apiVersion' | 'kind' | 'namespace' | 'name'>, answer: ScriptedAnswer): void {
    const info = this.resourceOf(id.apiVersion, id.kind);
    const key = `${verb} ${refText({ group: info.group, version: info.version, resource: info.plural }, info.namespaced ? id.namespace : undefined, id.name)}`;
    this.scripted.set(key, [...(this.scripted.get(key) ?? []), answer]);
  }

  /** Scripted answers not yet consumed: a test that scripts a call expects it to happen. */
  unusedScripts(): string[] {
    return [...this.scripted.entries()].flatMap(([key, answers]) => answers.map(() => key));
  }

  takeActions(): string[] {
    const taken = this.actions;
    this.actions = [];
    return taken;
  }

  takeEvents(): string[] {
    const taken = this.events;
    this.events = [];
    return taken;
  }

  /** The scripted answer for this call, if any: an error or object to return, or undefined to let the store answer. */
  private scriptedAnswer(verb: ScriptedVerb, ref: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    const key = `${verb} ${refText(ref, namespace, name)}`;
    const answers = this.scripted.get(key);
    const answer = answers?.shift();
    if (answers !== undefined && answers.length === 0) this.scripted.delete(key);
    if (answer === undefined) return undefined;
    if (answer instanceof StatusError) throw answer;
    if (typeof answer === 'function') {
      answer(this);
      return undefined;
    }
    return clone(answer);
  }

  // ---- The collector's side: recorded calls. ----

  async get(ref: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject> {
    this.actions.push(`get ${refText(ref, namespace, name)}`);
    const scripted = this.scriptedAnswer('get', ref, namespace, name);
    if (scripted !== undefined) return scripted;
    const obj = this.objects.get(this.key(ref, namespace, name));
    if (obj === undefined) throw notFound(ref, name);
    return clone(obj);
  }

  async delete(ref: ResourceRef, namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<DeleteResponse> {
    const pre = opts.preconditions;
    const details = [
      opts.propagationPolicy ?? 'default',
      ...(pre?.uid === undefined ? [] : [`uid=${pre.uid}`]),
      ...(pre?.resourceVersion === undefined ? [] : [`rv=${pre.resourceVersion}`]),
    ];
    this.actions.push(`delete ${refText(ref, namespace, name)} ${details.join(' ')}`);
    const scripted = this.scriptedAnswer('delete', ref, namespace, name);
    if (scripted !== undefined) return { code: 200, body: scripted };
    return this.applyDelete(ref, namespace, name, opts);
  }

  /** A user's DELETE, as the registry applies it (R2.6, R2.15, R2.22, R2.32). */
  private applyDelete(ref: ResourceRef, namespace: string | undefined, name: string, opts: DeleteOptions): DeleteResponse {
    const pre = opts.preconditions;
    const key = this.key(ref, namespace, name);
    const obj = this.objects.get(key);
    if (obj === undefined) throw notFound(ref, name);
    const { uid, resourceVersion } = obj.metadata;
    if (pre?.uid !== undefined && pre.uid !== uid) throw preconditionFailed(ref, name, 'UID', pre.uid, uid ?? '');
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== resourceVersion) {
      throw preconditionFailed(ref, name, 'ResourceVersion', pre.resourceVersion, resourceVersion ?? '');
    }
    const { changed, finalizers } = deletionFinalizersForGarbageCollection('DeleteDependents', opts, obj.metadata.finalizers ?? []);
    // R2.32: a DELETE that changes nothing on an object already being deleted writes nothing.
    if (obj.metadata.deletionTimestamp !== undefined && !changed) return { code: 200, body: clone(obj) };
    if (finalizers.length === 0) {
      this.objects.delete(key);
      this.removed.set(uid ?? '', obj);
      return { code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } };
    }
    const generation = obj.metadata.generation ?? 0;
    const marked = this.write(key, {
      ...obj,
      metadata: {
        ...obj.metadata,
        finalizers,
        deletionTimestamp: obj.metadata.deletionTimestamp ?? FAKE_DELETION_TIMESTAMP,
        deletionGracePeriodSeconds: 0,
        // R1.10: the first mark bumps a tracked generation.
        ...(obj.metadata.deletionTimestamp === undefined && generation > 0 ? { generation: generation + 1 } : {}),
      },
    });
    return { code: 200, body: marked };
  }

  /** The collector never applies: a call here is a bug in the code under test. */
  apply(): never {
    throw new Error('fake client: the garbage collector does not apply');
  }

  async patch(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown): Promise<KubeObject> {
    this.actions.push(`patch ${refText(ref, namespace, name)} ${type} ${JSON.stringify(patch)}`);
    const scripted = this.scriptedAnswer('patch', ref, namespace, name);
    if (scripted !== undefined) return scripted;
    const key = this.key(ref, namespace, name);
    const obj = this.objects.get(key);
    if (obj === undefined) throw notFound(ref, name);
    const meta = isObject(patch) && isObject(patch.metadata) ? patch.metadata : {};
    if (typeof meta.uid === 'string' && meta.uid !== obj.metadata.uid)
      throw preconditionFailed(ref, name, 'UID', meta.uid, obj.metadata.uid ?? '');
    if (type === 'strategic') {
      if (this.infoFor(ref).custom === true) {
        throw new StatusError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
        );
      }
      return this.write(key, deleteOwnerReferences(obj, patch));
    }
    if (type !== 'merge') throw new Error(`fake client: ${type} patches are not served`);
    if (typeof meta.resourceVersion === 'string' && meta.resourceVersion !== obj.metadata.resourceVersion)
      throw conflict(ref, name, OPTIMISTIC_LOCK_ERROR_MSG);
    const merged = applyJsonMergePatch(obj, patch) as KubeObject;
    merged.metadata.uid = obj.metadata.uid;
    merged.metadata.resourceVersion = obj.metadata.resourceVersion;
    return this.write(key, merged);
  }

  async create(ref: ResourceRef, namespace: string | undefined, obj: KubeObject): Promise<KubeObject> {
    if (ref.resource !== 'events') throw new Error(`fake client: the collector does not create ${ref.resource}`);
    const involved = isObject(obj.involvedObject) ? obj.involvedObject : {};
    const about = ['kind', 'apiVersion', 'namespace', 'name']
      .filter((k) => involved[k] !== undefined)
      .map((k) => `${k}=${String(involved[k])}`);
    this.events.push(`[${namespace}] ${String(obj.type)} ${String(obj.reason)} ${String(obj.message)} involvedObject{${about.join(',')}}`);
    return clone(obj);
  }

  /** Stores a written object: resourceVersion bumped, and removed when its last finalizer went during deletion (R2.35). */
  private write(key: string, obj: KubeObject): KubeObject {
    const next = clone(obj);
    // A write that changes nothing is not stored again, and keeps its resourceVersion (as the API server does).
    if (JSON.stringify(next) === JSON.stringify(this.objects.get(key))) return next;
    next.metadata.resourceVersion = String(Number(next.metadata.resourceVersion ?? '0') + 1);
    if (next.metadata.deletionTimestamp !== undefined && (next.metadata.finalizers ?? []).length === 0) {
      this.objects.delete(key);
      this.removed.set(next.metadata.uid ?? '', next);
    } else {
      this.objects.set(key, next);
    }
    return clone(next);
  }

  async list(): Promise<KubeList> {
    throw new Error('fake client: the collector step harness feeds events itself; list is not served');
  }

  async watch(): Promise<WatchStream> {
    throw new Error('fake client: the collector step harness feeds events itself; watch is not served');
  }

  async update(): Promise<KubeObject> {
    throw new Error('fake client: the collector never updates; update is not served');
  }

  async deleteCollection(): Promise<KubeList> {
    throw new Error('fake client: the collector never deletes collections; deletecollection is not served');
  }
}

/** The only strategic merge patch the collector sends (R4.27): `$patch: delete` entries of ownerReferences, by uid. */
function deleteOwnerReferences(obj: KubeObject, patch: unknown): KubeObject {
  const meta = isObject(patch) && isObject(patch.metadata) ? patch.metadata : undefined;
  const keys = meta === undefined ? [] : Object.keys(meta).filter((k) => k !== 'uid' && k !== 'ownerReferences');
  const entries = meta?.ownerReferences;
  if (!isObject(patch) || Object.keys(patch).length !== 1 || keys.length > 0 || !Array.isArray(entries)) {
    throw new Error(`fake client: unexpected strategic merge patch ${JSON.stringify(patch)}`);
  }
  const gone = new Set<string>();
  for (const entry of entries) {
    if (!isObject(entry) || entry.$patch !== 'delete' || typeof entry.uid !== 'string')
      throw new Error(`fake client: unexpected ownerReferences entry ${JSON.stringify(entry)}`);
    gone.add(entry.uid);
  }
  const remaining = (obj.metadata.ownerReferences ?? []).filter((r) => !gone.has(r.uid));
  const { ownerReferences: _, ...rest } = obj.metadata;
  return { ...obj, metadata: remaining.length === 0 ? rest : { ...rest, ownerReferences: remaining } };
}
