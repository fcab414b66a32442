import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type Clock, realClock } from '../../workqueue/clock.js';
import { createDelayingQueue, type DelayingQueue } from '../../workqueue/delaying-queue.js';
import { recordPodEvent } from '../pod-events.js';
import { emptyUsage, type FitFailure, filterNode, leastAllocatedScore, type NodeUsage, unschedulableMessage } from './node-fit.js';
import { type PodRequests, podRequests } from './pod-requests.js';
import { specOf } from '../../api/json-fields.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const NODES: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** Unschedulable pods retry with a backoff of 1 s doubling to 10 s after a cluster change, and every 5 minutes regardless. */
const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 10_000;
const FLUSH_UNSCHEDULABLE_MS = 5 * 60_000;

export interface SchedulerOptions {
  readonly client: ApiClient;
  readonly clock?: Clock;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
}

const phaseOf = (pod: KubeObject): unknown => (isObject(pod.status) ? pod.status.phase : undefined);
const isTerminal = (pod: KubeObject): boolean => phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed';
const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A pod this scheduler must place: unbound, not terminating or finished, not gated, and asking for it by name. */
export function wantsScheduling(pod: KubeObject): boolean {
  const spec = specOf(pod);
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') return false;
  if (pod.metadata.deletionTimestamp !== undefined || isTerminal(pod)) return false;
  if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) return false;
  return (spec.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME;
}

/**
 * A simplified kube-scheduler (R12.135–R12.138): one pod at a time from the informer caches, the default filters,
 * LeastAllocated scoring, and the bind through pods/binding done without waiting (its requests counted on the node
 * at once, as the scheduler "assumes" a pod) so thousands of pods are placed in a few seconds.
 */
export class Scheduler {
  private readonly client: ApiClient;
  private readonly clock: Clock;
  private readonly now: () => Date;
  private readonly log: (message: string) => void;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly queue: DelayingQueue<string>;
  /** Requests counted on each node, and what each counted pod contributed (keyed by pod key). */
  private readonly usage = new Map<string, NodeUsage>();
  private readonly counted = new Map<string, { node: string; requests: PodRequests }>();
  /** Pods found unschedulable, with their attempts so far (for the backoff). */
  private readonly unschedulable = new Map<string, number>();
  private readonly binds = new Set<Promise<void>>();
  private worker: Promise<void> | undefined;

  constructor(options: SchedulerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => {});
    this.queue = createDelayingQueue<string>({ clock: this.clock });
    this.pods = createSharedInformer(this.client, PODS, undefined);
    this.nodes = createSharedInformer(this.client, NODES, undefined);
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (_old, pod) => this.podChanged(pod),
      onDelete: (pod) => {
        const key = objectKey(pod);
        this.unschedulable.delete(key);
        if (this.uncount(key)) this.retryUnschedulable();
      },
    });
    this.nodes.addEventHandler({
      onAdd: () => this.retryUnschedulable(),
      onUpdate: (old, node) => {
        if (schedulingFacts(old) !== schedulingFacts(node)) this.retryUnschedulable();
      },
      onDelete: (node) => {
        this.usage.delete(node.metadata.name ?? '');
      },
    });
  }

  async start(): Promise<void> {
    this.pods.start();
    this.nodes.start();
    await Promise.all([this.pods.whenSynced(), this.nodes.whenSynced()]);
    this.worker = this.run();
  }

  private podChanged(pod: KubeObject): void {
    const key = objectKey(pod);
    const node = specOf(pod).nodeName;
    if (typeof node === 'string' && node !== '' && !isTerminal(pod)) {
      this.count(key, node, pod);
    } else if (this.uncount(key)) {
      // A pod finished: its node has room again.
      this.retryUnschedulable();
    }
    if (wantsScheduling(pod)) {
      if (!this.unschedulable.has(key)) this.queue.add(key);
    } else {
      this.unschedulable.delete(key);
    }
  }

  private count(key: string, node: string, pod: KubeObject): void {
    if (this.counted.get(key)?.node === node) return;
    this.uncount(key);
    const requests = podRequests(pod);
    const usage = this.usage.get(node) ?? emptyUsage();
    usage.cpu += requests.cpu;
    usage.memory += requests.memory;
    usage.nonZeroCpu += requests.nonZeroCpu;
    usage.nonZeroMemory += requests.nonZeroMemory;
    usage.pods += 1;
    this.usage.set(node, usage);
    this.counted.set(key, { node, requests });
  }

  private uncount(key: string): boolean {
    const entry = this.counted.get(key);
    if (entry === undefined) return false;
    this.counted.delete(key);
    const usage = this.usage.get(entry.node);
    if (usage !== undefined) {
      usage.cpu -= entry.requests.cpu;
      usage.memory -= entry.requests.memory;
      usage.nonZeroCpu -= entry.requests.nonZeroCpu;
      usage.nonZeroMemory -= entry.requests.nonZeroMemory;
      usage.pods -= 1;
    }
    return true;
  }

  private retryUnschedulable(): void {
    for (const [key, attempts] of this.unschedulable) {
      this.queue.addAfter(key, Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS));
    }
  }

  private async run(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        this.scheduleOne(key);
      } catch (err) {
        this.log(`scheduler: ${key}: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private scheduleOne(key: string): void {
    const pod = this.pods.store.getByKey(key);
    if (pod === undefined || !wantsScheduling(pod)) {
      this.unschedulable.delete(key);
      return;
    }
    const requests = podRequests(pod);
    const nodes = this.nodes.store.list();
    const failures: FitFailure[] = [];
    let best: { name: string; score: number; pods: number } | undefined;
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      const usage = this.usage.get(name) ?? emptyUsage();
      const failure = filterNode(pod, requests, node, usage);
      if (failure !== undefined) {
        failures.push(failure);
        continue;
      }
      const score = leastAllocatedScore(requests, node, usage);
      if (
        best === undefined ||
        score > best.score ||
        (score === best.score && (usage.pods < best.pods || (usage.pods === best.pods && name < best.name)))
      ) {
        best = { name, score, pods: usage.pods };
      }
    }
    if (best === undefined) {
      this.markUnschedulable(key, pod, unschedulableMessage(pod, nodes.length, failures));
      return;
    }
    this.unschedulable.delete(key);
    this.count(key, best.name, pod);
    const bind = this.bind(key, pod, best.name).finally(() => this.binds.delete(bind));
    this.binds.add(bind);
  }

  private async bind(key: string, pod: KubeObject, node: string): Promise<void> {
    const { name, namespace, uid } = pod.metadata;
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace, uid },
      target: { apiVersion: 'v1', kind: 'Node', name: node },
    };
    try {
      await this.client.create(PODS, namespace, binding, 'binding');
    } catch (err) {
      this.uncount(key);
      // Bound or deleted meanwhile: the informer brings the news; anything else is retried.
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) {
        this.log(`scheduler: binding ${key} to ${node}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addAfter(key, INITIAL_BACKOFF_MS);
      }
      return;
    }
    this.event(pod, 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`);
  }

  private markUnschedulable(key: string, pod: KubeObject, message: string): void {
    const attempts = (this.unschedulable.get(key) ?? 0) + 1;
    this.unschedulable.set(key, attempts);
    this.queue.addAfter(key, FLUSH_UNSCHEDULABLE_MS);
    this.event(pod, 'Warning', 'FailedScheduling', message);
    const status = isObject(pod.status) ? pod.status : {};
    const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
    const current = conditions.find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.reason === 'Unschedulable' && current.message === message) return;
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime:
        current?.status === 'False' && typeof current.lastTransitionTime === 'string' ? current.lastTransitionTime : rfc3339(this.now()),
      reason: 'Unschedulable',
      message,
    };
    const next = { ...pod, status: { ...status, conditions: [...conditions.filter((c) => c.type !== 'PodScheduled'), condition] } };
    this.client.update(PODS, pod.metadata.namespace, next, 'status').catch((err: unknown) => {
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) this.log(`scheduler: status of ${key}: ${String(err)}`);
    });
  }

  private event(pod: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    recordPodEvent(this.client, pod, type, reason, message, DEFAULT_SCHEDULER_NAME, this.now()).catch((err: unknown) =>
      this.log(`scheduler: event: ${String(err)}`),
    );
  }

  async stop(): Promise<void> {
    await Promise.all([this.pods.stop(), this.nodes.stop()]);
    this.queue.shutDown();
    await this.worker;
    await Promise.allSettled([...this.binds]);
  }
}

/** What of a Node the filters read: a heartbeat changes none of it. */
function schedulingFacts(node: KubeObject): string {
  const status = isObject(node.status) ? node.status : {};
  return JSON.stringify([node.metadata.labels, node.spec, status.allocatable]);
}
