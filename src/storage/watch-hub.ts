import type { WatchEvent, Watcher } from './backend.js';

/**
 * Returns the stored events with revision > afterRevision under the watched prefix, in revision order, or
 * throws (e.g. CompactedError) when they are no longer available.
 */
export type ReplayHistory = () => Iterable<WatchEvent> | Promise<Iterable<WatchEvent>>;

/**
 * Fans committed events out to watchers, each with its own unbounded buffer so that a slow consumer never
 * blocks the writer. A consumer that never reads while writes continue grows its buffer without limit; callers
 * that cannot rely on consumers draining must stop such watchers themselves.
 *
 * Backends call `publish` for every committed event, in revision order, and `watch` to start a watcher. A watcher
 * is subscribed before its history is replayed, and live events are released only after the replay and only when
 * newer than the last replayed one, so the hand-over from history to live has neither a gap nor a duplicate.
 */
export class WatchHub {
  readonly #byPrefix = new Map<string, Set<BufferedWatcher>>();
  /**
   * Which watched prefixes each key's directory (the key up to its last "/") falls under, so that a write does
   * not test every watched prefix. Dropped whenever the set of watched prefixes changes.
   */
  #routes = new Map<string, Route>();
  #closed = false;

  get watcherCount(): number {
    let total = 0;
    for (const group of this.#byPrefix.values()) total += group.size;
    return total;
  }

  publish(event: WatchEvent): void {
    if (this.#byPrefix.size === 0) return;
    const key = event.kv.key;
    const directory = key.slice(0, key.lastIndexOf('/') + 1);
    let route = this.#routes.get(directory);
    if (route === undefined) {
      route = this.#route(directory);
      this.#routes.set(directory, route);
    }
    for (const group of route.groups) {
      for (const watcher of group) watcher.offer(event);
    }
    for (const [prefix, group] of route.longer) {
      if (!key.startsWith(prefix)) continue;
      for (const watcher of group) watcher.offer(event);
    }
  }

  /** A prefix no longer than the directory matches every key in it exactly when it matches the directory. */
  #route(directory: string): Route {
    const route: Route = { groups: [], longer: [] };
    for (const [prefix, group] of this.#byPrefix) {
      if (prefix.length > directory.length) route.longer.push([prefix, group]);
      else if (directory.startsWith(prefix)) route.groups.push(group);
    }
    return route;
  }

  async watch(prefix: string, afterRevision: number, replay: ReplayHistory): Promise<Watcher> {
    if (this.#closed) throw new Error('watch hub is closed');
    const watcher = new BufferedWatcher(afterRevision, () => this.#unsubscribe(prefix, watcher));
    this.#subscribe(prefix, watcher);
    try {
      watcher.finishReplay(await replay());
    } catch (error) {
      watcher.stop();
      throw error;
    }
    return watcher;
  }

  /** Ends every watcher and refuses new ones. */
  close(): void {
    this.#closed = true;
    for (const group of [...this.#byPrefix.values()]) {
      for (const watcher of [...group]) watcher.stop();
    }
    this.#byPrefix.clear();
  }

  #subscribe(prefix: string, watcher: BufferedWatcher): void {
    let group = this.#byPrefix.get(prefix);
    if (group === undefined) {
      group = new Set();
      this.#byPrefix.set(prefix, group);
      this.#routes = new Map();
    }
    group.add(watcher);
  }

  #unsubscribe(prefix: string, watcher: BufferedWatcher): void {
    const group = this.#byPrefix.get(prefix);
    if (group === undefined) return;
    group.delete(watcher);
    if (group.size === 0) {
      this.#byPrefix.delete(prefix);
      this.#routes = new Map();
    }
  }
}

/** The watcher groups a directory's keys are delivered to, and the prefixes longer than it to test per key. */
interface Route {
  readonly groups: Set<BufferedWatcher>[];
  readonly longer: [string, Set<BufferedWatcher>][];
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** Compact the consumed front of a buffer once it is this long and at least half the array. */
const BUFFER_COMPACT_THRESHOLD = 1024;

/**
 * One watcher's queue. It is single-consumer: every call to [Symbol.asyncIterator] returns a view of the same
 * queue, and leaving a `for await` loop early stops the watcher.
 */
class BufferedWatcher implements Watcher {
  readonly #onStop: () => void;
  /** Live events that arrived while history was being replayed. */
  #heldBack: WatchEvent[] | undefined = [];
  #lastRevision: number;
  #buffer: WatchEvent[] = [];
  #head = 0;
  #waiting: ((result: IteratorResult<WatchEvent, undefined>) => void) | undefined;
  #stopped = false;

  constructor(afterRevision: number, onStop: () => void) {
    this.#lastRevision = afterRevision;
    this.#onStop = onStop;
  }

  offer(event: WatchEvent): void {
    if (this.#stopped) return;
    if (this.#heldBack !== undefined) {
      this.#heldBack.push(event);
      return;
    }
    this.#deliver(event);
  }

  finishReplay(history: Iterable<WatchEvent>): void {
    const heldBack = this.#heldBack ?? [];
    this.#heldBack = undefined;
    for (const event of history) this.#deliver(event);
    for (const event of heldBack) this.#deliver(event);
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#heldBack = undefined;
    this.#buffer = [];
    this.#head = 0;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(DONE);
    this.#onStop();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent, undefined> {
    return {
      next: () => this.#next(),
      return: async () => {
        this.stop();
        return DONE;
      },
    };
  }

  #deliver(event: WatchEvent): void {
    if (this.#stopped || event.revision <= this.#lastRevision) return;
    this.#lastRevision = event.revision;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting({ done: false, value: event });
      return;
    }
    this.#buffer.push(event);
  }

  poll(): WatchEvent | undefined {
    if (this.#head >= this.#buffer.length) return undefined;
    const event = this.#buffer[this.#head] as WatchEvent;
    this.#head += 1;
    this.#compactBuffer();
    return event;
  }

  #next(): Promise<IteratorResult<WatchEvent, undefined>> {
    const buffered = this.poll();
    if (buffered !== undefined) return Promise.resolve({ done: false, value: buffered });
    if (this.#stopped) return Promise.resolve(DONE);
    if (this.#waiting !== undefined) return Promise.reject(new Error('a watcher supports one pending next() at a time'));
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  #compactBuffer(): void {
    if (this.#head === this.#buffer.length) {
      this.#buffer.length = 0;
      this.#head = 0;
    } else if (this.#head >= BUFFER_COMPACT_THRESHOLD && this.#head * 2 >= this.#buffer.length) {
      this.#buffer = this.#buffer.slice(this.#head);
      this.#head = 0;
    }
  }
}
