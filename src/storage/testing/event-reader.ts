import assert from 'node:assert/strict';
import type { WatchEvent, Watcher } from '../backend.js';

/** Long enough for any healthy backend, short enough that a missing event fails the test quickly. */
const DEFAULT_TIMEOUT_MS = 2_000;

/** Reads a watcher through a single iterator, failing instead of hanging when events do not arrive. */
export class EventReader {
  readonly #iterator: AsyncIterator<WatchEvent>;
  readonly #timeoutMs: number;

  constructor(watcher: Watcher, timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.#iterator = watcher[Symbol.asyncIterator]();
    this.#timeoutMs = timeoutMs;
  }

  async take(count: number): Promise<WatchEvent[]> {
    const events: WatchEvent[] = [];
    while (events.length < count) {
      const result = await this.#next(`event ${events.length + 1} of ${count}`);
      assert.ok(!result.done, `watch ended after ${events.length} of ${count} events`);
      events.push(result.value);
    }
    return events;
  }

  /** Reads until an event with the given revision arrives; fails on any event past it. */
  async takeThrough(revision: number): Promise<WatchEvent[]> {
    const events: WatchEvent[] = [];
    for (;;) {
      const result = await this.#next(`the event at revision ${revision}`);
      assert.ok(!result.done, `watch ended before revision ${revision}`);
      events.push(result.value);
      if (result.value.revision >= revision) {
        assert.equal(result.value.revision, revision, 'the awaited revision was skipped');
        return events;
      }
    }
  }

  async expectEnd(): Promise<void> {
    const result = await this.#next('the end of the watch');
    assert.ok(result.done, `expected the watch to end, got event at revision ${String(result.value?.revision)}`);
  }

  async #next(what: string): Promise<IteratorResult<WatchEvent>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${this.#timeoutMs} ms waiting for ${what}`)), this.#timeoutMs);
    });
    try {
      return await Promise.race([this.#iterator.next(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
