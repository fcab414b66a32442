import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient } from '../../client/interface.js';
import { type CompiledRule, compileRule, validateRuleSpec } from '../../protection/compiled-rule.js';
import { PROTECTION_RULE_CLEANUP_FINALIZER, PROTECTION_RULES, type ProtectionRule } from '../../protection/rule-types.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';
import { isDeletionCandidate, needsFinalizer, putFinalizers } from './finalizers.js';
import { createProtectionMetrics, type ProtectionMetrics } from './metrics.js';
import { ProviderFinalizationController } from './provider-finalization-controller.js';

/** How long to wait before retrying a rule whose resources are not served yet (a CRD still being established). */
const NOT_SERVED_RETRY_MS = 250;

export interface ProtectionRuleControllerOptions {
  readonly client: ApiClient;
  readonly log?: (message: string) => void;
}

interface Running {
  readonly uid: string;
  readonly controller: ProviderFinalizationController;
}

/**
 * Runs one ProviderFinalizationController per ProtectionRule in force. Deleting a rule withdraws its protection:
 * its controller stops, the rule's finalizer is taken off every provider that no other rule in force protects with
 * the same finalizer, and then the rule's cleanup finalizer is removed.
 */
export class ProtectionRuleController {
  private readonly client: ApiClient;
  private readonly options: ProtectionRuleControllerOptions;
  private readonly informer: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly running = new Map<string, Running>();
  private readonly ruleMetrics = new Map<string, ProtectionMetrics>();
  private readonly waiting = new Set<string>();
  private worker: Promise<void> | undefined;

  constructor(options: ProtectionRuleControllerOptions) {
    this.options = options;
    this.client = options.client;
    this.informer = createSharedInformer(this.client, PROTECTION_RULES, undefined);
    const enqueue = (rule: KubeObject): void => this.queue.add(rule.metadata.name ?? '');
    this.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, rule) => enqueue(rule), onDelete: enqueue });
  }

  /** Counters of every rule's controller seen since start, by rule name. */
  metrics(): ProtectionMetrics[] {
    return [...this.ruleMetrics.values()];
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.whenSynced();
    this.worker = this.run();
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    this.queue.shutDown();
    await this.worker;
    await Promise.all([...this.running.values()].map((r) => r.controller.stop()));
    this.running.clear();
  }

  private run(): Promise<void> {
    return runWorker(
      this.queue,
      (name) => this.syncOrWait(name),
      (name, err) => this.report(name, err),
    );
  }

  /** A rule whose resources are not served yet is looked at again after NOT_SERVED_RETRY_MS, not with backoff. */
  private async syncOrWait(name: string): Promise<ItemResult | undefined> {
    try {
      await this.sync(name);
      return undefined;
    } catch (err) {
      if (!(err instanceof NotServedError)) throw err;
      // A rule waiting for its resources is retried quietly after the first report.
      if (!this.waiting.has(name)) this.report(name, err);
      this.waiting.add(name);
      return { requeueAfterMs: NOT_SERVED_RETRY_MS };
    }
  }

  private report(name: string, err: unknown): void {
    this.options.log?.(`protection rule controller: ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }

  private async sync(name: string): Promise<void> {
    const rule = this.informer.store.get(undefined, name) as ProtectionRule | undefined;
    const current = this.running.get(name);
    if (
      current !== undefined &&
      (rule === undefined || rule.metadata.deletionTimestamp !== undefined || current.uid !== rule.metadata.uid)
    ) {
      this.running.delete(name);
      await current.controller.stop();
    }
    if (rule === undefined) return;
    if (isDeletionCandidate(rule, PROTECTION_RULE_CLEANUP_FINALIZER)) {
      await this.withdraw(compileRule(rule));
      await putFinalizers(this.client, PROTECTION_RULES, rule, 'remove', PROTECTION_RULE_CLEANUP_FINALIZER);
      return;
    }
    if (rule.metadata.deletionTimestamp !== undefined || this.running.has(name)) return;
    if (validateRuleSpec(rule.spec).length > 0) return;
    if (needsFinalizer(rule, PROTECTION_RULE_CLEANUP_FINALIZER)) {
      await putFinalizers(this.client, PROTECTION_RULES, rule, 'add', PROTECTION_RULE_CLEANUP_FINALIZER);
      return;
    }
    let metrics = this.ruleMetrics.get(name);
    if (metrics === undefined) {
      metrics = createProtectionMetrics(`protectionrule/${name}`);
      this.ruleMetrics.set(name, metrics);
    }
    const controller = new ProviderFinalizationController({ client: this.client, rule: compileRule(rule), metrics, log: this.options.log });
    try {
      await controller.start();
    } catch (err) {
      await controller.stop();
      throw new NotServedError(err instanceof Error ? err.message : String(err));
    }
    this.waiting.delete(name);
    this.running.set(name, { uid: rule.metadata.uid ?? '', controller });
  }

  /** Takes the rule's finalizer off its providers, unless another rule in force puts the same one on them. */
  private async withdraw(rule: CompiledRule): Promise<void> {
    const shared = this.informer.store.list().some((other) => {
      if (other.metadata.name === rule.name || other.metadata.deletionTimestamp !== undefined) return false;
      const spec = (other as ProtectionRule).spec;
      return (
        spec.finalizer === rule.finalizer &&
        spec.provider.group === rule.provider.group &&
        spec.provider.resource === rule.provider.resource
      );
    });
    if (shared) return;
    let providers: KubeObject[];
    try {
      providers = (await this.client.list(rule.provider, undefined)).items;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
    for (const provider of providers) {
      if (!(provider.metadata.finalizers ?? []).includes(rule.finalizer)) continue;
      const finalizers = (provider.metadata.finalizers ?? []).filter((f) => f !== rule.finalizer);
      try {
        await this.client.patch(rule.provider, provider.metadata.namespace, provider.metadata.name ?? '', 'merge', {
          metadata: { resourceVersion: provider.metadata.resourceVersion, finalizers },
        });
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
  }
}

/** The rule's controller could not start: a resource is not served (yet), or the scopes cannot work together. */
class NotServedError extends Error {}
