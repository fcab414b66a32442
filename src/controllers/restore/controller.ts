import { StatusError } from '../../api/errors.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject, type OwnerReference, parseApiVersion } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { OriginalIdentity } from '../../registry/archive/entry.js';
import { ARCHIVED_OBJECTS, CLUSTER_ARCHIVED_OBJECTS } from '../../registry/archive/resources.js';
import { RESTORES, requesterUser, restoreSpec, type RestoreSpec } from '../../registry/archive/restore-resource.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { RESTORE_AWARE_RESOURCES, RESTORING_ANNOTATION } from '../workloads/restoring.js';
import { dependentsOf, findTarget, ownersFirst, type PlannedObject, rollForward, waves } from './plan.js';
import { finished, itemOf, type RefusedItem, type RestoredItem, type RestoreStatus } from './status.js';

/** May `user` create `ref` objects in `namespace`? The refusal's message when not (SubjectAccessReview semantics). */
export type CreateCheck = (user: UserInfo, ref: ResourceRef, namespace: string | undefined) => string | undefined;

export interface RestoreControllerOptions {
  /** The controller's own client: reads the archive, live objects and Restores, writes Restores' status. */
  readonly client: ApiClient;
  /** A client acting as the given user: every object a restore recreates is created as its requester. */
  readonly clientAs: (user: UserInfo) => ApiClient;
  readonly canCreate: CreateCheck;
  readonly clock?: () => Date;
  readonly log?: (message: string) => void;
  /** How long a custom resource's create waits for its just-restored CRD to be served (default 10 s). */
  readonly servedTimeoutMs?: number;
}

const toRef = (o: OriginalIdentity): ResourceRef => {
  const dot = o.resource.indexOf('.');
  const resource = dot < 0 ? o.resource : o.resource.slice(0, dot);
  const { group, version } = parseApiVersion(o.apiVersion);
  return { group, version, resource };
};

const ended = (restore: KubeObject): boolean =>
  isObject(restore.status) && Array.isArray(restore.status.conditions) && restore.status.conditions.length > 0;

/**
 * Runs Restores (issue 28): recreates an archived object and, with dependents, what its removal took with it,
 * rolling forward (new uids, owner references rewritten, owners first). Every check (live names, the requester's
 * create permission, namespaces) passes before anything is written; then each object is created as the requester.
 */
export class RestoreController {
  private readonly client: ApiClient;
  private readonly clientAs: (user: UserInfo) => ApiClient;
  private readonly canCreate: CreateCheck;
  private readonly clock: () => Date;
  private readonly log: (message: string) => void;
  private readonly servedTimeoutMs: number;
  private readonly informer: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private running: Promise<void> | undefined;

  constructor(options: RestoreControllerOptions) {
    this.client = options.client;
    this.clientAs = options.clientAs;
    this.canCreate = options.canCreate;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? (() => {});
    this.servedTimeoutMs = options.servedTimeoutMs ?? 10_000;
    this.informer = createSharedInformer(
      this.client,
      { group: RESTORES.group, version: RESTORES.version, resource: RESTORES.plural },
      undefined,
    );
    const enqueue = (obj: KubeObject): void => {
      if (!ended(obj)) this.queue.add(obj.metadata.name ?? '');
    };
    this.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, obj) => enqueue(obj), onDelete: () => {} });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.whenSynced();
    this.running = runWorker(
      this.queue,
      (name) => this.sync(name),
      (name, err) => this.log(`restore controller: ${name}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    this.queue.shutDown();
    await this.running;
  }

  private async sync(name: string): Promise<void> {
    const restore = this.informer.store.get(undefined, name);
    if (restore === undefined || ended(restore)) return;
    const status = await this.run(restoreSpec(restore));
    try {
      await this.client.update(RESTORE_REF, undefined, { ...structuredClone(restore), status: { ...status } }, 'status');
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }

  private async entries(): Promise<KubeObject[]> {
    const [namespaced, cluster] = await Promise.all([
      this.client.list(refOf(ARCHIVED_OBJECTS), undefined),
      this.client.list(refOf(CLUSTER_ARCHIVED_OBJECTS), undefined),
    ]);
    return [...namespaced.items, ...cluster.items];
  }

  /** The live object of that name, or undefined. */
  private async live(ref: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    try {
      return await this.client.get(ref, namespace, name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }

  private async run(spec: RestoreSpec): Promise<RestoreStatus> {
    const now = this.clock();
    const user = requesterUser(spec);
    if (user === undefined) return finished('Failed', 'NoRequester', 'the Restore records no requester to act as', now);
    const entries = await this.entries();
    const target = findTarget(entries, spec);
    if (target === undefined) return finished('Failed', 'NotFound', notFoundMessage(spec), now);
    const dependents = spec.withDependents === true || spec.dependentsOnly === true ? dependentsOf(entries, target) : [];
    const objects = ownersFirst(spec.dependentsOnly === true ? dependents : [target, ...dependents]);
    // With dependentsOnly the target lives again: its dependents' references go to the live one.
    const renewed = new Map<string, string>();
    if (spec.dependentsOnly === true) {
      const live = await this.live(toRef(target.original), target.original.namespace, target.original.name);
      if (live?.metadata.uid === undefined) {
        return finished('Failed', 'TargetNotLive', `${target.original.resource} "${target.original.name}" must be re-created first`, now);
      }
      renewed.set(target.original.uid, live.metadata.uid);
    }
    const { refusals, keptRefs } = await this.check(objects, user, renewed);
    if (refusals.length > 0) {
      return finished('Failed', 'Refused', `${refusals.length} of ${objects.length} objects cannot be restored`, now, [], refusals);
    }
    if (spec.dryRun === true) {
      const would = objects.map((p) => ({ ...itemOf(p.original), newUID: '' }));
      return finished('Complete', 'DryRun', `${objects.length} objects would be restored`, now, would);
    }
    return this.write(objects, user, keptRefs, renewed);
  }

  /**
   * Everything that would stop the restore, found before anything is written: a live object with the same name,
   * a permission the requester lacks, a namespace that neither lives nor is restored. Also which references to
   * owners outside the restore still name a live owner (the others are dropped: the collector would remove the
   * restored object at once).
   */
  private async check(
    objects: readonly PlannedObject[],
    user: UserInfo,
    renewed: ReadonlyMap<string, string>,
  ): Promise<{ refusals: RefusedItem[]; keptRefs: Set<string> }> {
    const keptRefs = new Set<string>();
    const served = await this.client.discover();
    const restoredUids = new Set(objects.map((p) => p.original.uid));
    const restoredNamespaces = new Set(objects.filter((p) => p.original.resource === 'namespaces').map((p) => p.original.name));
    const liveNamespaces = new Map<string, Promise<boolean>>();
    const namespaceLives = (ns: string): Promise<boolean> => {
      let known = liveNamespaces.get(ns);
      if (known === undefined) {
        known = this.live(NAMESPACE_REF, undefined, ns).then((found) => found !== undefined);
        liveNamespaces.set(ns, known);
      }
      return known;
    };
    // The live names of each resource and namespace a restore writes to, one list each (a cascade's thousands of
    // objects would otherwise cost as many reads, nearly all of them 404s).
    const liveNames = new Map<string, Promise<Set<string>>>();
    const namesIn = (ref: ResourceRef, ns: string | undefined): Promise<Set<string>> => {
      const key = `${ref.group}/${ref.resource}/${ns ?? ''}`;
      let names = liveNames.get(key);
      if (names === undefined) {
        names = this.client.list(ref, ns).then(
          (list) => new Set(list.items.map((o) => o.metadata.name ?? '')),
          (err: unknown) => {
            // Not served yet: a custom resource whose CRD this restore recreates has no live objects.
            if (err instanceof StatusError && err.code === 404) return new Set<string>();
            throw err;
          },
        );
        liveNames.set(key, names);
      }
      return names;
    };
    const why = async (p: PlannedObject): Promise<string | undefined> => {
      const ref = toRef(p.original);
      const ns = p.original.namespace;
      const denied = this.canCreate(user, ref, ns);
      if (denied !== undefined) return denied;
      if (ns !== undefined && !restoredNamespaces.has(ns) && !(await namespaceLives(ns))) return `namespaces "${ns}" not found`;
      if ((await namesIn(ref, ns)).has(p.original.name)) return `${p.original.resource} "${p.original.name}" already exists`;
      for (const owner of p.object.metadata.ownerReferences ?? []) {
        if (restoredUids.has(owner.uid) || renewed.has(owner.uid)) continue;
        if (await this.ownerLives(owner, ns, served)) keptRefs.add(owner.uid);
      }
      return undefined;
    };
    const answers = await inBatches(objects, why);
    const refusals = objects.flatMap((p, i) => {
      const message = answers[i];
      return message === undefined ? [] : [{ ...itemOf(p.original), message }];
    });
    return { refusals, keptRefs };
  }

  /** Whether the owner a reference names lives (cluster-scoped, or in the dependent's namespace) with that uid. */
  private async ownerLives(owner: OwnerReference, namespace: string | undefined, served: readonly ResourceInfo[]): Promise<boolean> {
    const { group, version } = parseApiVersion(owner.apiVersion);
    const info = served.find((r) => r.group === group && r.version === version && r.kind === owner.kind);
    if (info === undefined) return false;
    const found = await this.live({ group, version, resource: info.plural }, info.namespaced ? namespace : undefined, owner.name);
    return found?.metadata.uid === owner.uid;
  }

  /** Creates the objects in order, as the requester; stops at the first failure and reports how far it got. */
  private async write(
    objects: readonly PlannedObject[],
    user: UserInfo,
    keptRefs: ReadonlySet<string>,
    renewed: ReadonlyMap<string, string>,
  ): Promise<RestoreStatus> {
    const as = this.clientAs(user);
    const newUids = new Map(renewed);
    const restored: RestoredItem[] = [];
    const meanwhile: RefusedItem[] = [];
    const failed: RefusedItem[] = [];
    const held = heldWhileRestoring(objects);
    const marked: PlannedObject[] = [];
    const one = async (p: PlannedObject): Promise<void> => {
      const dropped: string[] = [];
      const body = rollForward(p.object, newUids, (ref) => {
        if (keptRefs.has(ref.uid)) return true;
        dropped.push(`${ref.kind}/${ref.name}`);
        return false;
      });
      if (held.has(p.original.uid)) body.metadata.annotations = { ...body.metadata.annotations, [RESTORING_ANNOTATION]: 'true' };
      let created: KubeObject;
      try {
        created = await this.create(as, toRef(p.original), p.original.namespace, body);
      } catch (err) {
        // Checked absent before the first write, so the cluster made it since: a restored namespace's default
        // ServiceAccount, a restored Deployment's ReplicaSet. The live one stays, and its dependents follow it.
        const live =
          err instanceof StatusError && err.code === 409
            ? await this.live(toRef(p.original), p.original.namespace, p.original.name)
            : undefined;
        if (live?.metadata.uid !== undefined) {
          newUids.set(p.original.uid, live.metadata.uid);
          meanwhile.push({ ...itemOf(p.original), message: `created meanwhile by the cluster (uid ${live.metadata.uid}), kept as is` });
          return;
        }
        failed.push({ ...itemOf(p.original), message: err instanceof Error ? err.message : String(err) });
        return;
      }
      const newUID = created.metadata.uid ?? '';
      newUids.set(p.original.uid, newUID);
      if (held.has(p.original.uid)) marked.push(p);
      const message = dropped.length === 0 ? undefined : `owner references dropped (owner gone, not restored): ${dropped.join(', ')}`;
      restored.push({ ...itemOf(p.original), newUID, ...(message === undefined ? {} : { message }) });
    };
    // A wave is written once the previous one is: every owner exists before its dependents are created.
    try {
      for (const wave of waves(objects)) {
        await inBatches(wave, one);
        if (failed.length > 0) {
          const message = `restored ${restored.length} of ${objects.length} objects`;
          return finished('Failed', 'CreateFailed', message, this.clock(), inOrder(objects, restored), [...meanwhile, ...failed]);
        }
      }
    } finally {
      // Dependents first, so a Deployment resumes only after its ReplicaSets have.
      for (const p of [...marked].reverse()) await this.release(p);
    }
    const counted = meanwhile.length === 0 ? '' : `; ${meanwhile.length} created meanwhile by the cluster`;
    return finished(
      'Complete',
      'Restored',
      `restored ${restored.length} objects${counted}`,
      this.clock(),
      inOrder(objects, restored),
      meanwhile,
    );
  }

  /** Hands a restored workload back to its controller; one that is gone or changed meanwhile needs nothing more. */
  private async release(p: PlannedObject): Promise<void> {
    const patch = { metadata: { annotations: { [RESTORING_ANNOTATION]: null } } };
    try {
      await this.client.patch(toRef(p.original), p.original.namespace, p.original.name, 'merge', patch);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404))
        this.log(`restore: releasing ${p.original.resource} ${p.original.name}: ${String(err)}`);
    }
  }

  /** A custom resource whose CRD this restore just recreated is served shortly after: its create waits, with a bound. */
  private async create(as: ApiClient, ref: ResourceRef, namespace: string | undefined, body: KubeObject): Promise<KubeObject> {
    const deadline = Date.now() + this.servedTimeoutMs;
    for (;;) {
      try {
        return await as.create(ref, namespace, body);
      } catch (err) {
        const unserved = err instanceof StatusError && err.code === 404 && err.reason === 'NotFound' && err.details?.name === undefined;
        if (!unserved || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}

const refOf = (info: { group: string; version: string; plural: string }): ResourceRef => ({
  group: info.group,
  version: info.version,
  resource: info.plural,
});
const RESTORE_REF = refOf(RESTORES);
const NAMESPACE_REF: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };

/** Requests in flight at once for a restore's checks and writes. */
const BATCH = 64;

/** `f` of every item, BATCH at a time; the answers in the items' order. */
async function inBatches<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) answers.push(...(await Promise.all(items.slice(i, i + BATCH).map(f))));
  return answers;
}

/** The workloads among `objects` that own others among them: their controllers wait until those are back. */
function heldWhileRestoring(objects: readonly PlannedObject[]): Set<string> {
  const owners = new Set<string>();
  for (const p of objects) for (const ref of p.object.metadata.ownerReferences ?? []) owners.add(ref.uid);
  return new Set(
    objects.filter((p) => owners.has(p.original.uid) && RESTORE_AWARE_RESOURCES.has(p.original.resource)).map((p) => p.original.uid),
  );
}

/** Restored items in the plan's order (a wave's writes finish in any order). */
function inOrder(objects: readonly PlannedObject[], restored: readonly RestoredItem[]): RestoredItem[] {
  const position = new Map(objects.map((p, i) => [p.original.uid, i]));
  return [...restored].sort((a, b) => (position.get(a.oldUID) ?? 0) - (position.get(b.oldUID) ?? 0));
}

function notFoundMessage(spec: RestoreSpec): string {
  const t = spec.target;
  const what = t.name !== undefined && t.name !== '' ? `"${t.name}"` : `with uid ${t.uid ?? ''}`;
  const where = t.namespace === undefined || t.namespace === '' ? '' : ` in namespace "${t.namespace}"`;
  const when = t.asOf === undefined ? '' : ` removed at or before ${t.asOf}`;
  return `no archived ${t.resource} ${what}${where}${when}`;
}
