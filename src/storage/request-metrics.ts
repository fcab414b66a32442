import type { OperationMetrics } from './backend.js';
import { keyTypeOf } from './key-types.js';
import { isContractAnswer } from './errors.js';

/**
 * kube-apiserver's etcd_request_duration_seconds buckets (seconds), so dashboards built for it read these too.
 */
export const REQUEST_DURATION_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
] as const;

interface Tally {
  readonly operation: string;
  readonly type: string;
  requests: number;
  failures: number;
  readonly buckets: number[];
  sumSeconds: number;
}

/**
 * Counts a backend's calls per operation and resource type (of the key or prefix, see key-types.ts). As in kube-apiserver, an answer the storage contract expects (the key
 * exists, a conflict, a compacted revision) is not a failure; an unreachable or timed-out store is.
 */
export class RequestMetrics {
  readonly #tallies = new Map<string, Tally>();

  /** `key` is the key or prefix the call is about; calls about none (the current revision) have the empty type. */
  async measure<T>(operation: string, key: string | undefined, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let failed = false;
    try {
      return await call();
    } catch (error) {
      failed = !isContractAnswer(error);
      throw error;
    } finally {
      this.#record(operation, key === undefined ? '' : keyTypeOf(key), (performance.now() - started) / 1000, failed);
    }
  }

  snapshot(): OperationMetrics[] {
    return [...this.#tallies.values()].map((tally) => {
      let running = 0;
      const bucketCounts = tally.buckets.map((count) => {
        running += count;
        return running;
      });
      return {
        operation: tally.operation,
        type: tally.type,
        requests: tally.requests,
        failures: tally.failures,
        bucketCounts,
        sumSeconds: tally.sumSeconds,
      };
    });
  }

  #record(operation: string, type: string, seconds: number, failed: boolean): void {
    const id = `${operation} ${type}`;
    let tally = this.#tallies.get(id);
    if (tally === undefined) {
      tally = { operation, type, requests: 0, failures: 0, buckets: new Array(REQUEST_DURATION_BUCKETS.length).fill(0), sumSeconds: 0 };
      this.#tallies.set(id, tally);
    }
    tally.requests++;
    if (failed) tally.failures++;
    tally.sumSeconds += seconds;
    const bucket = REQUEST_DURATION_BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) (tally.buckets[bucket] as number)++;
  }
}
