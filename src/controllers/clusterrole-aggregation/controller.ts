import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { ClusterRole } from '../../auth/rbac/bootstrap/rbac-types.js';
import { semanticEqual } from '../../auth/rbac/bootstrap/semantic-equal.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { aggregatedRules } from './aggregate.js';

const CLUSTER_ROLES: ResourceRef = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

export interface ClusterRoleAggregationControllerOptions {
  readonly client: ApiClient;
  /** kube-controller-manager runs this controller with 5 workers. */
  readonly workers?: number;
  readonly log?: (message: string) => void;
}

/**
 * Kubernetes' ClusterRoleAggregationController: keeps the rules of every ClusterRole that has an aggregationRule
 * equal to the union of the rules of the ClusterRoles its selectors match (how `admin`, `edit` and `view` pick up
 * rules that CRD authors label aggregate-to-*). Any ClusterRole change may alter any union, and there are few
 * roles, so every change requeues every aggregated role; a role is written only when its union differs.
 */
export class ClusterRoleAggregationController {
  private readonly client: ApiClient;
  private readonly workers: number;
  private readonly log: (message: string) => void;
  private readonly informer: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private running: Promise<void>[] = [];

  constructor(options: ClusterRoleAggregationControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.log = options.log ?? (() => {});
    this.informer = createSharedInformer(this.client, CLUSTER_ROLES, undefined);
    const enqueueAll = (): void => {
      for (const role of this.informer.store.list()) {
        if ((role as ClusterRole).aggregationRule != null) this.queue.add(role.metadata.name ?? '');
      }
    };
    this.informer.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll, onDelete: enqueueAll });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.whenSynced();
    for (let i = 0; i < this.workers; i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }

  private worker(): Promise<void> {
    return runWorker(
      this.queue,
      (name) => this.sync(name),
      (name, err) => this.log(`clusterrole aggregation controller: ${name}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private async sync(name: string): Promise<void> {
    const role = this.informer.store.get(undefined, name) as ClusterRole | undefined;
    if (role?.aggregationRule == null) return;
    const rules = aggregatedRules(role, this.informer.store.list() as KubeObject[]);
    if (semanticEqual(rules, role.rules)) return;
    try {
      // Like the server-side apply Kubernetes uses: the controller owns the rules outright, whatever their version.
      await this.client.patch(CLUSTER_ROLES, undefined, name, 'merge', { rules });
    } catch (err) {
      // Deleted since the cache saw it: nothing left to aggregate into.
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
  }
}
