import { type Clock, realClock } from './clock.js';
import { identityKey, type KeyOf } from './queue.js';

/** client-go's workqueue.RateLimiter: how long to wait before re-adding an item that failed. Times in milliseconds. */
export interface RateLimiter<T> {
  /** The delay for this retry of `item`; counts the retry. */
  when(item: T): number;
  /** Stops tracking `item` (it succeeded): its next failure starts again from the base delay. */
  forget(item: T): void;
  numRequeues(item: T): number;
}

export interface ExponentialBackoffOptions<T> {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly keyOf?: KeyOf<T>;
}

/** Per-item backoff: base·2^failures, capped at max (ItemExponentialFailureRateLimiter). */
export function createItemExponentialFailureRateLimiter<T>(options: ExponentialBackoffOptions<T>): RateLimiter<T> {
  const keyOf: KeyOf<T> = options.keyOf ?? identityKey;
  const failures = new Map<unknown, number>();
  return {
    when(item) {
      const key = keyOf(item);
      const exponent = failures.get(key) ?? 0;
      failures.set(key, exponent + 1);
      const delay = options.baseDelayMs * 2 ** exponent;
      return Number.isFinite(delay) && delay <= options.maxDelayMs ? delay : options.maxDelayMs;
    },
    forget(item) {
      failures.delete(keyOf(item));
    },
    numRequeues: (item) => failures.get(keyOf(item)) ?? 0,
  };
}

export interface TokenBucketOptions {
  /** Tokens added per second; Infinity disables the limit. */
  readonly qps: number;
  readonly burst: number;
  readonly clock?: Clock;
}

/**
 * An overall limit shared by all items (BucketRateLimiter over golang.org/x/time/rate): every retry takes a token
 * and, when the bucket is empty, waits for the token it has reserved, so the deficit can grow past zero.
 */
export function createBucketRateLimiter<T>(options: TokenBucketOptions): RateLimiter<T> {
  const clock = options.clock ?? realClock;
  let tokens = options.burst;
  let last = clock.now();
  return {
    when() {
      if (options.qps === Number.POSITIVE_INFINITY) return 0;
      const now = clock.now();
      tokens = Math.min(options.burst, tokens + ((now - last) * options.qps) / 1000);
      last = now;
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens / options.qps) * 1000;
    },
    forget() {},
    numRequeues: () => 0,
  };
}

/** The slowest answer of several limiters (MaxOfRateLimiter); every limiter sees every call. */
export function createMaxOfRateLimiter<T>(...limiters: readonly RateLimiter<T>[]): RateLimiter<T> {
  return {
    when(item) {
      let delay = 0;
      for (const l of limiters) delay = Math.max(delay, l.when(item));
      return delay;
    },
    forget(item) {
      for (const l of limiters) l.forget(item);
    },
    numRequeues(item) {
      let n = 0;
      for (const l of limiters) n = Math.max(n, l.numRequeues(item));
      return n;
    },
  };
}

export interface ControllerRateLimiterOptions<T> {
  /** Default 5 ms. */
  readonly baseDelayMs?: number;
  /** Default 1000 s. */
  readonly maxDelayMs?: number;
  /** Default 10. */
  readonly qps?: number;
  /** Default 100. */
  readonly burst?: number;
  readonly clock?: Clock;
  readonly keyOf?: KeyOf<T>;
}

/** client-go's DefaultControllerRateLimiter (per-item 5 ms → 1000 s, overall 10 qps burst 100), every limit overridable. */
export function createDefaultControllerRateLimiter<T>(options: ControllerRateLimiterOptions<T> = {}): RateLimiter<T> {
  return createMaxOfRateLimiter<T>(
    createItemExponentialFailureRateLimiter<T>({
      baseDelayMs: options.baseDelayMs ?? 5,
      maxDelayMs: options.maxDelayMs ?? 1_000_000,
      keyOf: options.keyOf,
    }),
    createBucketRateLimiter<T>({ qps: options.qps ?? 10, burst: options.burst ?? 100, clock: options.clock }),
  );
}
