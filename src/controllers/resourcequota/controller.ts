import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { add, formatQuantity, parseQuantity, type Quantity, ZERO } from '../../admission/resource-quota/quantity.js';
import { matchingResources, quotaCovers, usageOf } from '../../admission/resource-quota/usage.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';

const RESOURCE_QUOTAS: ResourceRef = { group: '', version: 'v1', resource: 'resourcequotas' };
/** --resource-quota-sync-period. */
const DEFAULT_RESYNC_MS = 5 * 60_000;
/** The resources whose deletion (or a pod's end) gives usage back at once, as the replenishment controller does. */
const REPLENISHED = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets'];
/** The core resources a quota name without a `count/` prefix belongs to. */
const CORE_NAMES: ReadonlyMap<string, string> = new Map([
  ['services.loadbalancers', 'services'],
  ['services.nodeports', 'services'],
  ['requests.storage', 'persistentvolumeclaims'],
]);

export interface ResourceQuotaControllerOptions {
  readonly client: ApiClient;
  readonly resyncMs?: number;
  readonly log?: (message: string) => void;
}

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

/**
 * What replenishment keeps of an object: where it was (its namespace; name and resourceVersion key the cache), and
 * a pod's phase. Its caches hold every ConfigMap and Secret of the cluster, so nothing else is kept.
 */
const replenishmentView =
  (resource: string) =>
  (obj: KubeObject): KubeObject => {
    const { name, namespace, uid, resourceVersion } = obj.metadata;
    const kept: KubeObject = { metadata: { name, namespace, uid, resourceVersion } };
    if (resource === 'pods') kept.status = { phase: record(obj.status).phase };
    return kept;
  };

/**
 * kube-controller-manager's resourcequota controller: keeps every ResourceQuota's `status.hard` equal to its spec
 * and `status.used` the usage of what its namespace holds, recomputed when the quota changes, when a charged
 * object goes away and periodically, so what admission charged for writes that then failed is given back.
 */
export class ResourceQuotaController {
  private readonly client: ApiClient;
  private readonly quotas: SharedInformer;
  private readonly replenishing: SharedInformer[];
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly resyncMs: number;
  private readonly log: (message: string) => void;
  private worker: Promise<void> | undefined;
  private resync: ReturnType<typeof setInterval> | undefined;

  constructor(options: ResourceQuotaControllerOptions) {
    this.client = options.client;
    this.resyncMs = options.resyncMs ?? DEFAULT_RESYNC_MS;
    this.log = options.log ?? (() => {});
    this.quotas = createSharedInformer(this.client, RESOURCE_QUOTAS, undefined);
    const enqueue = (quota: KubeObject): void => this.queue.add(`${quota.metadata.namespace}/${quota.metadata.name}`);
    this.quotas.addEventHandler({
      onAdd: enqueue,
      onUpdate: (old, quota) => {
        if (JSON.stringify(old.spec) !== JSON.stringify(quota.spec) || !isObject(quota.status)) enqueue(quota);
      },
    });
    const replenish = (obj: KubeObject): void => {
      for (const quota of this.quotas.store.list()) if (quota.metadata.namespace === obj.metadata.namespace) enqueue(quota);
    };
    this.replenishing = REPLENISHED.map((resource) => {
      const informer = createSharedInformer(this.client, { group: '', version: 'v1', resource }, undefined, {
        transform: replenishmentView(resource),
      });
      informer.addEventHandler({
        onDelete: replenish,
        onUpdate: (old, obj) => {
          // A pod that ends stops charging its compute resources.
          if (resource === 'pods' && record(old.status).phase !== record(obj.status).phase) replenish(obj);
        },
      });
      return informer;
    });
  }

  async start(): Promise<void> {
    for (const informer of [this.quotas, ...this.replenishing]) informer.start();
    const synced = await Promise.all([this.quotas, ...this.replenishing].map((i) => i.whenSynced()));
    // Stopped while waiting (an informer that cannot list never syncs): start nothing that would outlive stop().
    if (!synced.every(Boolean)) return;
    this.resync = setInterval(() => {
      for (const quota of this.quotas.store.list()) this.queue.add(`${quota.metadata.namespace}/${quota.metadata.name}`);
    }, this.resyncMs);
    this.worker = this.run();
  }

  private async run(): Promise<void> {
    for (;;) {
      const item = await this.queue.get();
      if (item === undefined) return;
      try {
        await this.sync(item);
        this.queue.forget(item);
      } catch (err) {
        this.log(`resourcequota: ${item}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addRateLimited(item);
      } finally {
        this.queue.done(item);
      }
    }
  }

  private async sync(item: string): Promise<void> {
    const [namespace = '', name = ''] = item.split('/');
    const cached = this.quotas.store.get(namespace, name);
    if (cached === undefined || cached.metadata.deletionTimestamp !== undefined) return;
    // A live read: the cache may not yet hold what admission charged, and the status write is guarded by it.
    const quota = await this.client.get(RESOURCE_QUOTAS, namespace, name).catch((err: unknown) => {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    });
    if (quota === undefined) return;
    const hard = record(record(quota.spec).hard);
    const used = await this.usage(quota, namespace, Object.keys(hard));
    const status = { hard: { ...hard }, used };
    if (JSON.stringify(status) === JSON.stringify(quota.status)) return;
    try {
      await this.client.update(RESOURCE_QUOTAS, namespace, { ...quota, status }, 'status');
    } catch (err) {
      // Charged by admission meanwhile: computed again from what is stored then.
      if (err instanceof StatusError && err.code === 409) this.queue.add(item);
      else if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }

  /** What the namespace's objects charge to the quota, for each of its hard resources, in the order given. */
  private async usage(quota: KubeObject, namespace: string, names: readonly string[]): Promise<Record<string, string>> {
    const totals = new Map<string, Quantity>(names.map((n) => [n, ZERO]));
    const hardQuantities = new Map(names.map((n) => [n, parseQuantity(record(record(quota.spec).hard)[n])]));
    const resources = await this.resourcesFor(names);
    const now = Date.now();
    for (const ref of resources) {
      const interesting = matchingResources(ref.group, ref.resource, names);
      if (interesting.length === 0) continue;
      const { items } = await this.client.list(ref, namespace);
      for (const obj of items) {
        if (!quotaCovers(quota, ref.group, ref.resource, obj)) continue;
        const usage = usageOf(ref.group, ref.resource, obj, now);
        for (const n of interesting) {
          const q = usage.get(n);
          if (q !== undefined) totals.set(n, add(totals.get(n) ?? ZERO, q));
        }
      }
    }
    // Printed in the hard limit's format, as quota.Add keeps the first operand's (a zero used starts from hard's).
    return Object.fromEntries(
      names.map((n) => {
        const total = totals.get(n) ?? ZERO;
        return [n, formatQuantity({ nano: total.nano, format: hardQuantities.get(n)?.format ?? total.format })];
      }),
    );
  }

  /** The resources to list for these quota names: the core ones by name, `count/<resource>.<group>` through discovery. */
  private async resourcesFor(names: readonly string[]): Promise<ResourceRef[]> {
    const refs = new Map<string, ResourceRef>();
    const core = (resource: string): void => {
      refs.set(`/${resource}`, { group: '', version: 'v1', resource });
    };
    const counted: { group: string; resource: string }[] = [];
    for (const n of names) {
      if (n.startsWith('count/')) {
        const [resource = '', ...group] = n.slice('count/'.length).split('.');
        if (group.length === 0) core(resource);
        else counted.push({ group: group.join('.'), resource });
      } else if (n.includes('.storageclass.storage.k8s.io/')) core('persistentvolumeclaims');
      else if (CORE_NAMES.has(n)) core(CORE_NAMES.get(n) as string);
      else if (['services', 'secrets', 'configmaps', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas'].includes(n))
        core(n);
      else core('pods');
    }
    if (counted.length > 0) {
      const served = await this.client.discover();
      for (const { group, resource } of counted) {
        const info = served.find((r) => r.group === group && r.plural === resource && r.namespaced);
        if (info !== undefined) refs.set(`${group}/${resource}`, { group, version: info.version, resource });
      }
    }
    return [...refs.values()];
  }

  async stop(): Promise<void> {
    if (this.resync !== undefined) clearInterval(this.resync);
    await Promise.all([this.quotas, ...this.replenishing].map((i) => i.stop()));
    this.queue.shutDown();
    await this.worker;
  }
}
