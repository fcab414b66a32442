import type { NodeWorkQueue } from '../garbage-collector.js';
import type { GraphNode } from '../graph.js';

/** How an item came to wait: added, or put back by the worker loop with backoff or after a fixed delay. */
export type QueuedVia = 'add' | 'rate-limited' | `after ${number}ms`;

export interface QueuedItem {
  readonly node: GraphNode;
  readonly via: QueuedVia;
}

/**
 * A work queue for step tests: the real queue's rules (an item waits at most once; one added while it is being
 * processed waits again once it is done) without its clock. Retries and delayed adds wait at the end at once,
 * remembering how they came, so a test sees "requeued with backoff" as a state instead of waiting for it. The
 * worker loop takes items only while a step allows it; then the queue looks shut down and the loop returns.
 */
export class StepQueue implements NodeWorkQueue {
  private readonly waiting: QueuedItem[] = [];
  private readonly processing = new Set<GraphNode>();
  /** Items added again while being processed, and how. */
  private readonly again = new Map<GraphNode, QueuedVia>();
  private allowance = 0;

  add(node: GraphNode): void {
    this.enqueue(node, 'add');
  }

  addRateLimited(node: GraphNode): void {
    this.enqueue(node, 'rate-limited');
  }

  addAfter(node: GraphNode, ms: number): void {
    this.enqueue(node, `after ${ms}ms`);
  }

  private enqueue(node: GraphNode, via: QueuedVia): void {
    if (this.processing.has(node)) {
      if (!this.again.has(node)) this.again.set(node, via);
      return;
    }
    if (this.waiting.some((item) => item.node === node)) return;
    this.waiting.push({ node, via });
  }

  /** Lets the worker loop take `count` items; throws if fewer are waiting, since the step would mean nothing. */
  allow(count: number): void {
    if (this.waiting.length < count) throw new Error(`asked to process ${count} item(s) but only ${this.waiting.length} wait`);
    this.allowance = count;
  }

  tryGet(): GraphNode | undefined {
    if (this.allowance <= 0) return undefined;
    const item = this.waiting.shift();
    if (item === undefined) return undefined;
    this.allowance--;
    this.processing.add(item.node);
    return item.node;
  }

  /** The step's allowance is spent: to the worker loop, the queue has shut down. */
  async get(): Promise<GraphNode | undefined> {
    return undefined;
  }

  done(node: GraphNode): void {
    this.processing.delete(node);
    const via = this.again.get(node);
    if (via === undefined) return;
    this.again.delete(node);
    this.waiting.push({ node, via });
  }

  /** Backoff is not modelled (retries wait at the end at once), so there is none to reset. */
  forget(): void {}

  /** Items waiting, in the order the workers will take them. */
  pending(): readonly QueuedItem[] {
    return [...this.waiting];
  }

  /** Whether the node waits or is being processed (so it will be looked at again). */
  holds(node: GraphNode): boolean {
    return this.processing.has(node) || this.waiting.some((item) => item.node === node);
  }
}
