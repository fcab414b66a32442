import type { ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import { objectKey, objectKeyOf, splitObjectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { CompiledRule } from '../../protection/compiled-rule.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { isDeletionCandidate, needsFinalizer, putFinalizers } from './finalizers.js';
import type { ProtectionMetrics } from './metrics.js';
import { UsageIndex } from './usage-index.js';

export interface ProviderFinalizationOptions {
  readonly client: ApiClient;
  readonly rule: CompiledRule;
  readonly metrics: ProtectionMetrics;
  /** One worker by default, as Kubernetes runs its protection controllers (R6.9). */
  readonly workers?: number;
  readonly log?: (message: string) => void;
}

/** Field selector values escape `\`, `,` and `=` (fields.EscapeValue). */
function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

/**
 * The design's Provider Finalization Controller for one ProtectionRule. Informers on providers and dependents;
 * dependents are indexed by the providers they may be using (usage-index.ts). A provider being deleted keeps its finalizer when the
 * cache shows a user (safe: a stale cache only over-reports, and the user's later change is delivered and requeues
 * the provider); otherwise a live LIST selecting the provider's dependents by the rule's reference field decides,
 * and only an empty answer removes the finalizer. Any error requeues the provider with backoff.
 */
export class ProviderFinalizationController {
  private readonly client: ApiClient;
  private readonly rule: CompiledRule;
  private readonly metrics: ProtectionMetrics;
  private readonly options: ProviderFinalizationOptions;
  private readonly queue: RateLimitedQueue<string>;
  private providers: SharedInformer | undefined;
  private dependents: SharedInformer | undefined;
  private providerNamespaced = false;
  private readonly usage = new UsageIndex();
  private running: Promise<void>[] = [];

  constructor(options: ProviderFinalizationOptions) {
    this.options = options;
    this.client = options.client;
    this.rule = options.rule;
    this.metrics = options.metrics;
    this.queue = createRateLimitedQueue<string>({ metrics: this.metrics.queue });
  }

  /** Resolves the scopes from discovery (throws while a resource is not served), then starts informers and workers. */
  async start(): Promise<void> {
    const served = await this.client.discover();
    const provider = findServed(served, this.rule.provider);
    const dependent = findServed(served, this.rule.dependent);
    if (provider.namespaced && !dependent.namespaced) {
      throw new Error(`${dependent.plural} are cluster-scoped and cannot refer to namespaced ${provider.plural} by name`);
    }
    this.providerNamespaced = provider.namespaced;
    const { rule } = this;
    const usedKeys = (dep: KubeObject): string[] =>
      rule.providersInUse(dep).map((name) => objectKeyOf(this.providerNamespaced ? dep.metadata.namespace : undefined, name));
    this.providers = createSharedInformer(this.client, rule.provider, undefined);
    this.dependents = createSharedInformer(this.client, rule.dependent, undefined);
    const providerChanged = (obj: KubeObject): void => {
      if (needsFinalizer(obj, rule.finalizer) || isDeletionCandidate(obj, rule.finalizer)) this.queue.add(objectKey(obj));
    };
    this.providers.addEventHandler({ onAdd: providerChanged, onUpdate: (_old, obj) => providerChanged(obj) });
    // Only a dependent that stops using a provider can let it go: a deletion, or an update leaving it out.
    this.dependents.addEventHandler({
      onAdd: (obj) => this.usage.set(objectKey(obj), [], usedKeys(obj)),
      onUpdate: (old, obj) => {
        const before = usedKeys(old);
        const after = usedKeys(obj);
        this.usage.set(objectKey(obj), before, after);
        const still = new Set(after);
        for (const key of before) if (!still.has(key)) this.queue.add(key);
      },
      onDelete: (old) => {
        const before = usedKeys(old);
        this.usage.set(objectKey(old), before, []);
        for (const key of before) this.queue.add(key);
      },
    });
    this.providers.start();
    this.dependents.start();
    await Promise.all([this.providers.whenSynced(), this.dependents.whenSynced()]);
    for (let i = 0; i < (this.options.workers ?? 1); i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    await Promise.all([this.providers?.stop(), this.dependents?.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }

  private worker(): Promise<void> {
    return runWorker(
      this.queue,
      (key) => this.sync(key),
      (key, err) => this.options.log?.(`protection rule ${this.rule.name}: ${key}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private async sync(key: string): Promise<void> {
    const provider = this.providers?.store.getByKey(key);
    if (provider === undefined) return;
    const { finalizer } = this.rule;
    if (isDeletionCandidate(provider, finalizer)) {
      if (await this.isBeingUsed(key)) return;
      await putFinalizers(this.client, this.rule.provider, provider, 'remove', finalizer);
      this.metrics.finalizersRemoved++;
      return;
    }
    if (needsFinalizer(provider, finalizer)) {
      await putFinalizers(this.client, this.rule.provider, provider, 'add', finalizer);
      this.metrics.finalizersAdded++;
    }
  }

  private async isBeingUsed(key: string): Promise<boolean> {
    if (this.usage.inUse(key)) {
      this.metrics.cacheHits++;
      return true;
    }
    const { namespace, name } = splitObjectKey(key);
    this.metrics.liveLists++;
    const live = await this.client.list(this.rule.dependent, this.providerNamespaced ? namespace : undefined, {
      fieldSelector: `${this.rule.fieldLabel}=${escapeFieldValue(name)}`,
    });
    return live.items.some(
      (dep) => (!this.providerNamespaced || dep.metadata.namespace === namespace) && this.rule.providersInUse(dep).includes(name),
    );
  }
}

function findServed(served: readonly ResourceInfo[], ref: ResourceRef): ResourceInfo {
  const info = served.find((r) => r.group === ref.group && r.version === ref.version && r.plural === ref.resource);
  if (info === undefined)
    throw new Error(`${ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`}/${ref.version} is not served`);
  return info;
}
