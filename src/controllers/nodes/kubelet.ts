import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { objectKey } from '../../cache/object-key.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type Clock, realClock } from '../../workqueue/clock.js';
import { createDelayingQueue, type DelayingQueue } from '../../workqueue/delaying-queue.js';
import type { NodeSimulator } from './node-simulator.js';
import { PodIpPool } from './pod-ip-pool.js';
import { quantityValue } from '../../validation/quantity-value.js';
import { matchesNodeSelectorAndAffinity } from '../scheduler/node-fit.js';
import { rejectedStatus, runningStatus, stopAtMs, terminatedStatus } from './pod-lifecycle.js';
import { nodeInternalIp } from './simulated-node.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const NODE_NAME_INDEX = 'nodeName';
/** Status writes in flight at once: the in-process writes overlap, so a backlog of thousands of starts drains faster. */
const WORKERS = 16;

export interface SimulatedKubeletsOptions {
  readonly client: ApiClient;
  readonly nodes: NodeSimulator;
  readonly clock?: Clock;
  /** Wall time in ms, for the timestamps written and the deletion deadlines. */
  readonly wallNow?: () => number;
  readonly log?: (message: string) => void;
}

const phaseOf = (pod: KubeObject): unknown => (isObject(pod.status) ? pod.status.phase : undefined);
const isTerminal = (pod: KubeObject): boolean => phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed';
const nodeNameOf = (pod: KubeObject): string => (isObject(pod.spec) && typeof pod.spec.nodeName === 'string' ? pod.spec.nodeName : '');

/**
 * The pod half of every simulated kubelet (R12.144–R12.157), one informer and queue for all nodes: starts the pods
 * bound to a simulated node, lets them become ready, finish and restart as their annotations say, and on deletion
 * stops them, posts the terminal status and removes them with grace 0. It writes only pods/status and DELETE.
 */
export class SimulatedKubelets {
  private readonly client: ApiClient;
  private readonly nodes: NodeSimulator;
  private readonly clock: Clock;
  private readonly wallNow: () => number;
  private readonly log: (message: string) => void;
  private readonly pods: SharedInformer;
  private readonly queue: DelayingQueue<string>;
  private readonly ips = new PodIpPool();
  /** Per pod uid: when its containers started, and when its deletion was first seen (wall ms). */
  private readonly started = new Map<string, number>();
  private readonly deletionSeen = new Map<string, number>();
  private workers: Promise<void>[] = [];

  constructor(options: SimulatedKubeletsOptions) {
    this.client = options.client;
    this.nodes = options.nodes;
    this.clock = options.clock ?? realClock;
    this.wallNow = options.wallNow ?? Date.now;
    this.log = options.log ?? (() => {});
    this.queue = createDelayingQueue<string>({ clock: this.clock });
    this.pods = createSharedInformer(this.client, PODS, undefined, {
      indexers: { [NODE_NAME_INDEX]: (pod) => [nodeNameOf(pod)] },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.enqueue(pod),
      onUpdate: (_old, pod) => this.enqueue(pod),
      onDelete: (pod) => this.forget(pod),
    });
    this.nodes.nodes.addEventHandler({
      onAdd: (node) => this.nodeAppeared(node.metadata.name ?? ''),
      onDelete: (node) => this.ips.releaseNode(node.metadata.name ?? ''),
    });
  }

  async start(): Promise<void> {
    this.pods.start();
    await this.pods.whenSynced();
    this.workers = Array.from({ length: WORKERS }, () => this.run());
  }

  private nodeAppeared(name: string): void {
    for (const key of this.pods.store.indexKeys(NODE_NAME_INDEX, name)) this.queue.add(key);
  }

  private enqueue(pod: KubeObject): void {
    const node = nodeNameOf(pod);
    if (node === '') return;
    const ip = isObject(pod.status) && typeof pod.status.podIP === 'string' ? pod.status.podIP : undefined;
    // After a restart, the addresses already handed out stay taken.
    if (this.nodes.node(node) === undefined) return;
    if (ip !== undefined && !(isObject(pod.spec) && pod.spec.hostNetwork === true)) this.ips.claim(node, pod.metadata.uid ?? '', ip);
    this.queue.add(objectKey(pod));
  }

  private forget(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    this.ips.release(nodeNameOf(pod), uid);
    this.started.delete(uid);
    this.deletionSeen.delete(uid);
  }

  private async run(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.sync(key);
      } catch (err) {
        if (err instanceof StatusError && (err.code === 409 || err.code === 404)) {
          // A newer pod is on its way through the informer, or it is gone.
          if (err.code === 409) this.queue.addAfter(key, 50);
        } else {
          this.log(`simulated kubelet: ${key}: ${err instanceof Error ? err.message : String(err)}`);
          this.queue.addAfter(key, 1000);
        }
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async sync(key: string): Promise<void> {
    const pod = this.pods.store.getByKey(key);
    if (pod === undefined) return;
    const nodeName = nodeNameOf(pod);
    const managed = this.nodes.node(nodeName);
    const node = this.nodes.nodes.store.get(undefined, nodeName);
    if (managed === undefined || node === undefined) return;
    const uid = pod.metadata.uid ?? '';
    const now = this.wallNow();
    if (pod.metadata.deletionTimestamp !== undefined) {
      await this.terminate(key, pod, now);
      return;
    }
    if (isTerminal(pod)) {
      // A finished pod's sandbox is gone: its address may serve the next pod (finished pods linger until pod GC).
      this.ips.release(nodeName, uid);
      return;
    }
    const hostIP = nodeInternalIp(node);
    if (hostIP === undefined) {
      this.queue.addAfter(key, 200);
      return;
    }
    const hostNetwork = isObject(pod.spec) && pod.spec.hostNetwork === true;
    const podIP = hostNetwork ? hostIP : this.ips.allocate(nodeName, managed.podCidr, uid);
    let startedMs = this.started.get(uid);
    if (startedMs === undefined && !(isObject(pod.status) && typeof pod.status.startTime === 'string')) {
      const rejection = this.admit(pod, node);
      if (rejection !== undefined) {
        this.ips.release(nodeName, uid);
        const status = rejectedStatus(pod, rejection[0], rejection[1], now, hostIP);
        await this.client.update(PODS, pod.metadata.namespace, { ...pod, status }, 'status');
        return;
      }
    }
    if (startedMs === undefined) {
      const old = isObject(pod.status) ? pod.status : {};
      startedMs = typeof old.startTime === 'string' ? Date.parse(old.startTime) : now;
      this.started.set(uid, startedMs);
    }
    const step = runningStatus(pod, { hostIP, podIP, startedMs }, now);
    if (step.wakeAtMs !== undefined) this.queue.addAfter(key, step.wakeAtMs - now);
    if (JSON.stringify(step.status) === JSON.stringify(pod.status)) return;
    await this.client.update(PODS, pod.metadata.namespace, { ...pod, status: step.status }, 'status');
  }

  /**
   * The kubelet's admission of a pod bound to it without the scheduler's checks (R12.145): the node must match its
   * selector and affinity, and have room under allocatable pods. Returns [reason, message] when refused.
   */
  private admit(pod: KubeObject, node: KubeObject): [string, string] | undefined {
    if (!matchesNodeSelectorAndAffinity(pod, node)) return ['NodeAffinity', 'Predicate NodeAffinity failed'];
    const status = isObject(node.status) ? node.status : {};
    const capacity = quantityValue(isObject(status.allocatable) ? status.allocatable.pods : undefined);
    const used = this.pods.store
      .byIndex(NODE_NAME_INDEX, nodeNameOf(pod))
      .filter(
        (p) => p.metadata.uid !== pod.metadata.uid && !isTerminal(p) && isObject(p.status) && typeof p.status.startTime === 'string',
      ).length;
    if (used + 1 > capacity) {
      return ['OutOfpods', `Node didn't have enough resource: pods, requested: 1, used: ${used}, capacity: ${capacity}`];
    }
    return undefined;
  }

  /** SIGTERM: wait for the containers (or the grace period), post the terminal status, then delete with grace 0. */
  private async terminate(key: string, pod: KubeObject, now: number): Promise<void> {
    const uid = pod.metadata.uid ?? '';
    if (!isTerminal(pod)) {
      let seen = this.deletionSeen.get(uid);
      if (seen === undefined) {
        seen = now;
        this.deletionSeen.set(uid, seen);
      }
      const stop = stopAtMs(pod, seen);
      if (now < stop.atMs) {
        this.queue.addAfter(key, stop.atMs - now);
        return;
      }
      await this.client.update(PODS, pod.metadata.namespace, { ...pod, status: terminatedStatus(pod, now, stop.graceRanOut) }, 'status');
    }
    if (pod.metadata.deletionGracePeriodSeconds === 0 && isTerminal(pod)) return;
    await this.client.delete(PODS, pod.metadata.namespace, pod.metadata.name ?? '', {
      gracePeriodSeconds: 0,
      preconditions: { uid },
    });
  }

  async stop(): Promise<void> {
    await this.pods.stop();
    this.queue.shutDown();
    await Promise.all(this.workers);
  }
}
