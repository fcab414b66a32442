import type { Backend } from '../backend.js';

/** One behaviour every Backend must show, run against a fresh backend that the suite closes afterwards. */
export interface ConformanceCase {
  /** Unique across the suite; skip lists refer to cases by this name. */
  readonly name: string;
  readonly run: (backend: Backend) => Promise<void>;
}

export interface ConformanceGroup {
  readonly name: string;
  readonly cases: readonly ConformanceCase[];
}
