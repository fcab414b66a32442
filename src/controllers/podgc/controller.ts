import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type Cancel, type Clock, realClock } from '../../workqueue/clock.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const NODES: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };
const NODE_NAME_INDEX = 'nodeName';
/** gc_controller.go's period and --terminated-pod-gc-threshold default. */
const GC_PERIOD_MS = 20_000;
const TERMINATED_POD_THRESHOLD = 12_500;

export interface PodGcOptions {
  readonly client: ApiClient;
  readonly clock?: Clock;
  readonly now?: () => Date;
  readonly terminatedPodThreshold?: number;
  readonly log?: (message: string) => void;
}

const nodeNameOf = (pod: KubeObject): string => (isObject(pod.spec) && typeof pod.spec.nodeName === 'string' ? pod.spec.nodeName : '');
const phaseOf = (pod: KubeObject): unknown => (isObject(pod.status) ? pod.status.phase : undefined);
const isTerminal = (pod: KubeObject): boolean => phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed';
const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The pod garbage collector (podgc, R12.161–R12.162): force-deletes pods bound to Nodes that no longer exist (first
 * marking live ones Failed with DisruptionTarget=DeletionByPodGC), unbound terminating pods, and terminal pods beyond
 * the threshold, oldest first. A Node's deletion is acted on at once rather than after Kubernetes' 40 s quarantine.
 */
export class PodGarbageCollector {
  private readonly client: ApiClient;
  private readonly clock: Clock;
  private readonly now: () => Date;
  private readonly threshold: number;
  private readonly log: (message: string) => void;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private cancelTimer: Cancel | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(options: PodGcOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.now = options.now ?? (() => new Date());
    this.threshold = options.terminatedPodThreshold ?? TERMINATED_POD_THRESHOLD;
    this.log = options.log ?? (() => {});
    this.pods = createSharedInformer(this.client, PODS, undefined, { indexers: { [NODE_NAME_INDEX]: (pod) => [nodeNameOf(pod)] } });
    this.nodes = createSharedInformer(this.client, NODES, undefined);
    this.nodes.addEventHandler({ onDelete: (node) => this.enqueue(() => this.gcNode(node.metadata.name ?? '')) });
  }

  async start(): Promise<void> {
    this.pods.start();
    this.nodes.start();
    await Promise.all([this.pods.whenSynced(), this.nodes.whenSynced()]);
    this.schedule();
  }

  private enqueue(task: () => Promise<void>): void {
    this.running = this.running.then(task).catch((err: unknown) => this.log(`pod GC: ${err instanceof Error ? err.message : String(err)}`));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.cancelTimer = this.clock.setTimeout(() => {
      this.enqueue(() => this.sweep());
      this.schedule();
    }, GC_PERIOD_MS);
  }

  private async sweep(): Promise<void> {
    const pods = this.pods.store.list();
    const missing = new Set<string>();
    for (const pod of pods) {
      const node = nodeNameOf(pod);
      if (node !== '' && this.nodes.store.get(undefined, node) === undefined) missing.add(node);
      if (node === '' && pod.metadata.deletionTimestamp !== undefined) await this.forceDelete(pod, false);
    }
    for (const node of missing) await this.gcNode(node);
    await this.gcTerminated(pods);
  }

  /** Pods of a Node that is gone (a live read confirms it) are failed and force-deleted. */
  private async gcNode(name: string): Promise<void> {
    if (name === '') return;
    try {
      await this.client.get(NODES, undefined, name);
      return;
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
    for (const pod of this.pods.store.byIndex(NODE_NAME_INDEX, name)) await this.forceDelete(pod, true);
  }

  private async gcTerminated(pods: readonly KubeObject[]): Promise<void> {
    if (this.threshold <= 0) return;
    const terminated = pods.filter(isTerminal);
    const excess = terminated.length - this.threshold;
    if (excess <= 0) return;
    terminated.sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)));
    for (const pod of terminated.slice(0, excess)) await this.forceDelete(pod, false);
  }

  private async forceDelete(pod: KubeObject, nodeGone: boolean): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    try {
      if (!isTerminal(pod)) await this.markFailed(pod, nodeGone);
      await this.client.delete(PODS, namespace, name ?? '', { gracePeriodSeconds: 0, preconditions: { uid } });
    } catch (err) {
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** markFailedAndDeletePodWithCondition: phase Failed and DisruptionTarget=True before the pod goes. */
  private async markFailed(pod: KubeObject, nodeGone: boolean): Promise<void> {
    const status = isObject(pod.status) ? pod.status : {};
    const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
    const disruption = {
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: rfc3339(this.now()),
      reason: 'DeletionByPodGC',
      message: nodeGone ? 'PodGC: node no longer exists' : 'PodGC: terminating pod not scheduled',
    };
    const next = { ...status, phase: 'Failed', conditions: [...conditions.filter((c) => c.type !== 'DisruptionTarget'), disruption] };
    await this.client.update(PODS, pod.metadata.namespace, { ...pod, status: next }, 'status');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    await Promise.all([this.pods.stop(), this.nodes.stop()]);
    await this.running;
  }
}
