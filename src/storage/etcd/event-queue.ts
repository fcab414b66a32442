import type { WatchEvent, Watcher } from '../backend.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A Watcher fed from outside: events are buffered without bound until read, so a slow consumer never stalls
 * the etcd stream. A failure is delivered after the events already buffered, as the rejection of one read;
 * stop() discards what is buffered and ends every pending and later read.
 */
export class EventQueue implements Watcher {
  readonly #buffer: WatchEvent[] = [];
  #head = 0;
  #waiting: { resolve: (result: IteratorResult<WatchEvent>) => void; reject: (error: unknown) => void } | undefined;
  #failure: unknown;
  #ended = false;
  readonly #onStop: () => void;

  constructor(onStop: () => void) {
    this.#onStop = onStop;
  }

  get ended(): boolean {
    return this.#ended;
  }

  push(event: WatchEvent): void {
    if (this.#ended || this.#failure !== undefined) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting.resolve({ done: false, value: event });
      return;
    }
    this.#buffer.push(event);
  }

  /** Ends the stream with an error once the buffered events have been read. */
  fail(error: unknown): void {
    if (this.#ended || this.#failure !== undefined) return;
    this.#failure = error;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      this.#finish();
      waiting.reject(error);
    }
  }

  stop(): void {
    if (this.#ended) return;
    this.#buffer.length = 0;
    this.#head = 0;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    this.#finish();
    waiting?.resolve(DONE);
  }

  #finish(): void {
    this.#ended = true;
    this.#onStop();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => this.#next(),
      return: async () => {
        this.stop();
        return DONE;
      },
    };
  }

  #next(): Promise<IteratorResult<WatchEvent>> {
    if (this.#head < this.#buffer.length) {
      const value = this.#buffer[this.#head] as WatchEvent;
      this.#head += 1;
      // Compact now and then instead of shift(), which is linear in the backlog.
      if (this.#head >= 1024 && this.#head * 2 >= this.#buffer.length) {
        this.#buffer.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.#ended) return Promise.resolve(DONE);
    if (this.#failure !== undefined) {
      this.#finish();
      return Promise.reject(this.#failure);
    }
    if (this.#waiting !== undefined) return Promise.reject(new Error('watch read while another read is pending'));
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }
}
