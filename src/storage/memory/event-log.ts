import type { WatchEvent } from '../backend.js';

/** Drop the consumed front of the array once it is this long and at least half the array. */
const COMPACT_THRESHOLD = 4096;

/** The retained write events in revision order, with the time each was written, trimmed from the front as history is compacted. */
export class EventLog {
  #events: WatchEvent[] = [];
  /** Milliseconds (any monotonic clock) at which each event was appended; same indices as #events. */
  #times: number[] = [];
  #head = 0;

  append(event: WatchEvent, at: number): void {
    this.#events.push(event);
    this.#times.push(at);
  }

  /**
   * The revision of the newest retained event written before `time`; undefined when none was. One comparison when
   * the oldest retained event is that recent, as it is on every write but those that age history out.
   */
  newestRevisionBefore(time: number): number | undefined {
    const times = this.#times;
    if (!((times[this.#head] ?? time) < time)) return undefined;
    let low = this.#head;
    let high = times.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((times[mid] as number) < time) low = mid + 1;
      else high = mid;
    }
    return (this.#events[low - 1] as WatchEvent).revision;
  }

  /** Removes the events with revision < revision, oldest first, passing each to onDrop. */
  dropBefore(revision: number, onDrop: (event: WatchEvent) => void): void {
    const events = this.#events;
    while (this.#head < events.length) {
      const event = events[this.#head] as WatchEvent;
      if (event.revision >= revision) break;
      this.#head += 1;
      onDrop(event);
    }
    if (this.#head >= COMPACT_THRESHOLD && this.#head * 2 >= events.length) {
      this.#events = events.slice(this.#head);
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The retained events with revision > afterRevision whose key starts with prefix. */
  after(afterRevision: number, prefix: string): WatchEvent[] {
    const events = this.#events;
    const matching: WatchEvent[] = [];
    for (let i = this.#firstAfter(afterRevision); i < events.length; i++) {
      const event = events[i] as WatchEvent;
      if (event.kv.key.startsWith(prefix)) matching.push(event);
    }
    return matching;
  }

  #firstAfter(revision: number): number {
    const events = this.#events;
    let low = this.#head;
    let high = events.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((events[mid] as WatchEvent).revision <= revision) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
