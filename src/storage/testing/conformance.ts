import { describe, it } from 'node:test';
import type { Backend } from '../backend.js';
import { compactionCases } from './compaction-cases.js';
import type { ConformanceGroup } from './conformance-case.js';
import { readCases } from './read-cases.js';
import { watchCases } from './watch-cases.js';
import { writeCases } from './write-cases.js';

export interface BackendConformanceOptions {
  readonly name: string;
  /**
   * Returns a new, empty backend. Each case gets its own and closes it afterwards, also when the case already
   * closed it, so close() must be idempotent.
   */
  readonly newBackend: () => Promise<Backend>;
  /** Cases this backend cannot pass yet, by case name, with the reason shown in the test report. */
  readonly skip?: readonly { readonly reason: string; readonly tests: readonly string[] }[];
}

const GROUPS: readonly ConformanceGroup[] = [writeCases, readCases, watchCases, compactionCases];

/** A hung watch fails its case instead of the whole run. */
const CASE_TIMEOUT_MS = 15_000;

/** Registers the behaviours every Backend must show (see backend.ts) as node:test cases. */
export function runBackendConformance(options: BackendConformanceOptions): void {
  const skipReasons = skipReasonsByCase(options.skip ?? []);
  describe(`storage backend conformance: ${options.name}`, () => {
    for (const group of GROUPS) {
      describe(group.name, () => {
        for (const conformanceCase of group.cases) {
          const skip = skipReasons.get(conformanceCase.name) ?? false;
          it(conformanceCase.name, { skip, timeout: CASE_TIMEOUT_MS }, async () => {
            const backend = await options.newBackend();
            try {
              await conformanceCase.run(backend);
            } finally {
              await backend.close();
            }
          });
        }
      });
    }
  });
}

function skipReasonsByCase(skips: NonNullable<BackendConformanceOptions['skip']>): Map<string, string> {
  const known = new Set(GROUPS.flatMap((group) => group.cases.map((conformanceCase) => conformanceCase.name)));
  const reasons = new Map<string, string>();
  for (const { reason, tests } of skips) {
    for (const name of tests) {
      if (!known.has(name)) throw new Error(`runBackendConformance: cannot skip unknown case "${name}"`);
      reasons.set(name, reason);
    }
  }
  return reasons;
}
