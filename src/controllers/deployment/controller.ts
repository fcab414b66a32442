import type { KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../cache/store.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { LabelSelector } from '../../selectors/label-selector.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { runWorker } from '../../workqueue/worker.js';
import { claimObjects, controllerRefOf } from '../workloads/controller-ref.js';
import { eventRecorder } from '../workloads/events.js';
import { isBeingRestored } from '../workloads/restoring.js';
import { DEPLOYMENTS, type DeploymentContext, REPLICA_SETS } from './context.js';
import { checkPausedConditions, isScalingEvent, rolloutRecreate, rolloutRolling, scalingSync, statusOnlySync } from './rollout.js';
import { isRollingUpdate, specOf, statusOf } from './util.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const CONTROLLER_UID_INDEX = 'controllerUid';

export interface DeploymentControllerOptions {
  readonly client: ApiClient;
  /** --concurrent-deployment-syncs (default 5). */
  readonly workers?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A selector that does not parse selects nothing (validation keeps such selectors out of storage). */
function selectorOf(d: KubeObject): LabelSelector | undefined {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(specOf(d).selector));
  } catch {
    return undefined;
  }
}

/**
 * The Deployment controller (R12.45–R12.66): claims ReplicaSets by selector, creates the one for the current
 * template, rolls out by the strategy, scales proportionally, cleans up history and writes status and conditions.
 */
export class DeploymentController {
  private readonly client: ApiClient;
  private readonly deployments: SharedInformer;
  private readonly replicaSets: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly workers: number;
  private readonly log: (message: string) => void;
  private readonly ctx: DeploymentContext;
  private running: Promise<void>[] = [];

  constructor(options: DeploymentControllerOptions) {
    this.client = options.client;
    this.workers = options.workers ?? 5;
    this.log = options.log ?? (() => {});
    const onError = (err: unknown): void => this.log(`deployment-controller: ${errorText(err)}`);
    const byNamespace = { [NAMESPACE_INDEX]: namespaceIndexFunc };
    this.deployments = createSharedInformer(this.client, DEPLOYMENTS, undefined, { indexers: byNamespace, onError });
    this.replicaSets = createSharedInformer(this.client, REPLICA_SETS, undefined, { indexers: byNamespace, onError });
    // Only Recreate rollouts read pods: to know when every old pod has finished.
    this.pods = createSharedInformer(this.client, PODS, undefined, {
      indexers: { [CONTROLLER_UID_INDEX]: (pod) => [controllerRefOf(pod)?.uid ?? ''] },
      onError,
    });
    this.ctx = {
      client: this.client,
      now: options.now ?? Date.now,
      record: eventRecorder(this.client, 'deployment-controller', this.log),
      cachedReplicaSet: (namespace, name) => this.replicaSets.store.get(namespace, name),
      podsOf: (uid) => this.pods.store.byIndex(CONTROLLER_UID_INDEX, uid),
      requeueAfter: (d, ms) => this.queue.addAfter(objectKey(d), ms),
    };
    this.deployments.addEventHandler({
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_old, d) => this.enqueue(d),
      onDelete: (d) => this.enqueue(d),
    });
    this.replicaSets.addEventHandler({
      onAdd: (rs) => this.replicaSetChanged(rs),
      onUpdate: (old, rs) => {
        if (old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
        const oldRef = controllerRefOf(old);
        if (oldRef !== undefined && oldRef.uid !== controllerRefOf(rs)?.uid) this.replicaSetChanged(old);
        this.replicaSetChanged(rs);
      },
      onDelete: (rs) => this.replicaSetChanged(rs),
    });
    this.pods.addEventHandler({
      onDelete: (pod) => {
        const rs = this.resolve(pod, 'ReplicaSet', this.replicaSets);
        const d = rs === undefined ? undefined : this.resolve(rs, 'Deployment', this.deployments);
        if (d !== undefined && !isRollingUpdate(d)) this.enqueue(d);
      },
    });
  }

  async start(): Promise<void> {
    for (const informer of [this.deployments, this.replicaSets, this.pods]) informer.start();
    await Promise.all([this.deployments.whenSynced(), this.replicaSets.whenSynced(), this.pods.whenSynced()]);
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (key, err) => this.log(`deployment-controller: syncing ${key}: ${errorText(err)}`),
        ),
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.deployments.stop(), this.replicaSets.stop(), this.pods.stop()]);
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  private enqueue(d: KubeObject): void {
    this.queue.add(objectKey(d));
  }

  private resolve(obj: KubeObject, kind: string, owners: SharedInformer): KubeObject | undefined {
    const ref = controllerRefOf(obj);
    if (ref === undefined || ref.kind !== kind) return undefined;
    const owner = owners.store.get(obj.metadata.namespace, ref.name);
    return owner?.metadata.uid === ref.uid ? owner : undefined;
  }

  /** A ReplicaSet wakes its Deployment, or, as an orphan, every Deployment that could adopt it. */
  private replicaSetChanged(rs: KubeObject): void {
    if (controllerRefOf(rs) !== undefined) {
      const d = this.resolve(rs, 'Deployment', this.deployments);
      if (d !== undefined) this.enqueue(d);
      return;
    }
    for (const d of this.deployments.store.byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')) {
      if (selectorOf(d)?.matches(rs.metadata.labels) === true) this.enqueue(d);
    }
  }

  /** syncDeployment (R12.51). */
  async sync(key: string): Promise<undefined> {
    const cached = this.deployments.store.getByKey(key);
    if (cached === undefined || isBeingRestored(cached)) return undefined;
    let d = cached;
    const selector = selectorOf(d);
    if (selector === undefined || selector.empty) {
      this.ctx.record(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      const observed = statusOf(d).observedGeneration;
      if (typeof d.metadata.generation === 'number' && (typeof observed !== 'number' || observed < d.metadata.generation)) {
        await this.client.update(
          DEPLOYMENTS,
          d.metadata.namespace,
          { ...d, status: { ...statusOf(d), observedGeneration: d.metadata.generation } },
          'status',
        );
      }
      return undefined;
    }
    const candidates = this.replicaSets.store.byIndex(NAMESPACE_INDEX, d.metadata.namespace ?? '');
    const rsList = await claimObjects(candidates, {
      client: this.client,
      dependents: REPLICA_SETS,
      ownerResource: DEPLOYMENTS,
      owner: d,
      matches: (rs) => selector.matches(rs.metadata.labels),
    });
    if (d.metadata.deletionTimestamp !== undefined) await statusOnlySync(this.ctx, d, rsList);
    else {
      d = await checkPausedConditions(this.ctx, d);
      if (specOf(d).paused === true || isScalingEvent(d, rsList)) await scalingSync(this.ctx, d, rsList);
      else if (isRollingUpdate(d)) await rolloutRolling(this.ctx, d, rsList);
      else await rolloutRecreate(this.ctx, d, rsList);
    }
    return undefined;
  }
}
