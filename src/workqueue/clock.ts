/** Cancels a pending timer; calling it after the timer fired (or twice) does nothing. */
export type Cancel = () => void;

/**
 * Time as the work queues and reflectors see it (client-go's clock.Clock, injected through TypedQueueConfig "for
 * testing purposes"). `now()` is in milliseconds on a monotonic scale: only differences between readings mean anything.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Cancel;
}

/** Wall-clock timers that never keep the process alive on their own: a stopped controller must let Node exit. */
export const realClock: Clock = {
  now: () => performance.now(),
  setTimeout(fn, ms) {
    // Node's timers run on the loop's cached time and can fire a little before `ms` has passed on `now()`;
    // such an early timer is re-armed for the remainder, so the contract "never before ms" holds.
    const due = performance.now() + ms;
    let timer: ReturnType<typeof setTimeout>;
    const arm = (delay: number): void => {
      timer = setTimeout(
        () => {
          const left = due - performance.now();
          if (left > 0) arm(left);
          else fn();
        },
        Math.max(0, Math.ceil(delay)),
      );
      timer.unref();
    };
    arm(ms);
    return () => clearTimeout(timer);
  },
};

interface FakeTimer {
  readonly due: number;
  readonly seq: number;
  readonly fn: () => void;
}

/** A clock that only moves when a test calls `advance`; due timers then fire in due-time order (ties in creation order). */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<FakeTimer>();

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): Cancel {
    const timer: FakeTimer = { due: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.add(timer);
    return () => {
      this.timers.delete(timer);
    };
  }

  /** Timers not yet fired nor cancelled. */
  pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, including ones scheduled by those timers. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.earliestDueBy(target);
      if (next === undefined) break;
      this.timers.delete(next);
      this.current = next.due;
      next.fn();
    }
    this.current = target;
  }

  private earliestDueBy(target: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers) {
      if (t.due > target) continue;
      if (best === undefined || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
