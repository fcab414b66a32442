import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import { type Cancel, type Clock, realClock } from '../../workqueue/clock.js';
import { createQueue, type Queue } from '../../workqueue/queue.js';
import {
  isSimulatedNode,
  LEASE_RENEW_MS,
  MAX_SIMULATED_NODES,
  NODE_LEASE_NAMESPACE,
  NODE_STATUS_MS,
  newSimulatedNode,
  nodeLease,
  podCidrFor,
  renewedLease,
  simulatedNodeStatus,
} from './simulated-node.js';

export const NODES: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };
const LEASES: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const GENERATED_NAME = /^kwok-node-(\d+)$/;

export interface NodeSimulatorOptions {
  readonly client: ApiClient;
  /** Nodes to create at start (`--simulate-nodes`). */
  readonly count: number;
  readonly clock?: Clock;
  /** Wall time in ms, for the timestamps written. */
  readonly wallNow?: () => number;
  readonly log?: (message: string) => void;
}

/** What the kubelet side needs to know about a node it drives. */
export interface ManagedNode {
  readonly index: number;
  readonly podCidr: string;
}

/**
 * The node half of the simulated kubelets: creates the `--simulate-nodes` Nodes, posts each simulated node's status
 * (at once, then every minute) and renews its Lease in kube-node-lease every 10 s, one timer for all nodes.
 */
export class NodeSimulator {
  readonly nodes: SharedInformer;
  private readonly client: ApiClient;
  private readonly count: number;
  private readonly clock: Clock;
  private readonly wallNow: () => number;
  private readonly log: (message: string) => void;
  private readonly queue: Queue<string> = createQueue<string>();
  private readonly managed = new Map<string, ManagedNode>();
  private readonly leases = new Map<string, KubeObject>();
  private readonly statusWrittenAt = new Map<string, number>();
  private nextIndex: number;
  private worker: Promise<void> | undefined;
  private cancelTick: Cancel | undefined;
  private stopped = false;

  constructor(options: NodeSimulatorOptions) {
    this.client = options.client;
    if (options.count > MAX_SIMULATED_NODES) throw new Error(`at most ${MAX_SIMULATED_NODES} simulated nodes, asked for ${options.count}`);
    this.count = options.count;
    this.clock = options.clock ?? realClock;
    this.wallNow = options.wallNow ?? Date.now;
    this.log = options.log ?? (() => {});
    this.nextIndex = Math.max(options.count, 1000);
    this.nodes = createSharedInformer(this.client, NODES, undefined);
    this.nodes.addEventHandler({
      onAdd: (node) => this.observe(node),
      onUpdate: (_old, node) => this.observe(node),
      onDelete: (node) => this.forget(node.metadata.name ?? ''),
    });
  }

  /** The simulated node of this name, if Cascade drives it. */
  node(name: string): ManagedNode | undefined {
    return this.managed.get(name);
  }

  async start(): Promise<void> {
    this.nodes.start();
    await this.nodes.whenSynced();
    for (let i = 0; i < this.count; i++) {
      try {
        await this.client.create(NODES, undefined, newSimulatedNode(i));
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 409)) throw err;
      }
    }
    this.worker = this.run();
    this.tick();
  }

  private observe(node: KubeObject): void {
    const name = node.metadata.name ?? '';
    if (!isSimulatedNode(node) || node.metadata.deletionTimestamp !== undefined) {
      this.forget(name);
      return;
    }
    if (!this.managed.has(name)) {
      const generated = GENERATED_NAME.exec(name);
      const index = generated === null ? this.nextIndex++ : Number(generated[1]);
      // A node whose index has no pod CIDR left (a huge kwok-node-N, or too many annotated nodes) is not simulated.
      if (index >= MAX_SIMULATED_NODES) {
        this.log(`node simulator: ${name} is not simulated: at most ${MAX_SIMULATED_NODES} nodes have pod CIDRs`);
        return;
      }
      const spec = isObject(node.spec) ? node.spec : {};
      const podCidr = typeof spec.podCIDR === 'string' && spec.podCIDR !== '' ? spec.podCIDR : podCidrFor(index);
      this.managed.set(name, { index, podCidr });
      this.queue.add(name);
    } else if (!this.isReady(node)) {
      this.queue.add(name);
    }
  }

  private isReady(node: KubeObject): boolean {
    const status = isObject(node.status) ? node.status : {};
    const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
    return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
  }

  private forget(name: string): void {
    this.managed.delete(name);
    this.leases.delete(name);
    this.statusWrittenAt.delete(name);
  }

  /** One timer for every node: renew the leases, and queue the nodes whose status is a minute old. */
  private tick(): void {
    if (this.stopped) return;
    this.cancelTick = this.clock.setTimeout(() => {
      const now = this.clock.now();
      for (const name of this.managed.keys()) {
        this.renewLease(name).catch((err: unknown) => this.log(`node simulator: lease ${name}: ${String(err)}`));
        if (now - (this.statusWrittenAt.get(name) ?? 0) >= NODE_STATUS_MS) this.queue.add(name);
      }
      this.tick();
    }, LEASE_RENEW_MS);
  }

  private async run(): Promise<void> {
    for (;;) {
      const name = await this.queue.get();
      if (name === undefined) return;
      try {
        await this.postStatus(name);
        if (!this.leases.has(name)) await this.renewLease(name);
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) {
          this.log(`node simulator: ${name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      } finally {
        this.queue.done(name);
      }
    }
  }

  private async postStatus(name: string): Promise<void> {
    const node = this.nodes.store.get(undefined, name);
    const managed = this.managed.get(name);
    if (node === undefined || managed === undefined) return;
    const next = { ...node, status: simulatedNodeStatus(node, managed.index, this.wallNow()) };
    await this.client.update(NODES, undefined, next, 'status');
    this.statusWrittenAt.set(name, this.clock.now());
  }

  private async renewLease(name: string): Promise<void> {
    const node = this.nodes.store.get(undefined, name);
    if (node === undefined || !this.managed.has(name)) return;
    const known = this.leases.get(name);
    try {
      const written =
        known === undefined
          ? await this.client.create(LEASES, NODE_LEASE_NAMESPACE, nodeLease(node, this.wallNow()))
          : await this.client.update(LEASES, NODE_LEASE_NAMESPACE, renewedLease(known, this.wallNow()));
      if (this.managed.has(name)) this.leases.set(name, written);
    } catch (err) {
      // Someone else wrote the Lease (or it is gone): start again from the stored one next time.
      if (!(err instanceof StatusError && (err.code === 409 || err.code === 404))) throw err;
      if (err.code === 409) {
        const current = await this.client.get(LEASES, NODE_LEASE_NAMESPACE, name);
        this.leases.set(name, current);
      } else {
        this.leases.delete(name);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTick?.();
    await this.nodes.stop();
    this.queue.shutDown();
    await this.worker;
  }
}
