import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryBackend } from '../src/storage/memory/backend.js';
import { createSqliteBackend } from '../src/storage/sqlite/backend.js';
import { CREATE_CONCURRENCY, CREATE_LOAD_MS, type Measured, measureInProcessCreates } from './load.js';
import { median } from './stats.js';

/**
 * Issue 7's SQLite figure: HTTP ConfigMap creates per second through Cascade on a SQLite file, against the same
 * server on the in-memory backend in the same run (target: at least 60%). Both run in-process with their
 * controllers, alternating so that machine noise hits both alike; each round starts on empty storage.
 */
const ROUNDS = 3;
const WARMUP_MS = 1000;
const TARGET_RATIO = 0.6;

export async function benchSqlite(): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'cascade-bench-sqlite-'));
  const memoryRuns: Measured[] = [];
  const sqliteRuns: Measured[] = [];
  try {
    // Both code paths are compiled by the JIT before anything is timed.
    await measureInProcessCreates(createMemoryBackend(), WARMUP_MS);
    await measureInProcessCreates(createSqliteBackend({ path: join(dir, 'warmup.db') }), WARMUP_MS);
    for (let round = 0; round < ROUNDS; round++) {
      memoryRuns.push(await measureInProcessCreates(createMemoryBackend(), CREATE_LOAD_MS));
      sqliteRuns.push(await measureInProcessCreates(createSqliteBackend({ path: join(dir, `round-${round}.db`) }), CREATE_LOAD_MS));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const memory = median(memoryRuns.map((r) => r.perSecond));
  const sqlite = median(sqliteRuns.map((r) => r.perSecond));
  const failures = (runs: Measured[]): number => runs.reduce((n, r) => n + r.failures, 0);
  const ratio = sqlite / memory;
  const verdict = ratio >= TARGET_RATIO ? 'PASS' : 'FAIL';
  const list = (runs: Measured[]): string => runs.map((r) => r.perSecond.toFixed(0)).join(', ');
  process.stdout.write(
    `SQLite HTTP creates: ${sqlite.toFixed(0)}/s (runs ${list(sqliteRuns)}) vs memory ${memory.toFixed(0)}/s (runs ${list(memoryRuns)}): ` +
      `${(ratio * 100).toFixed(1)}%, target ≥ ${TARGET_RATIO * 100}%: ${verdict}\n`,
  );
  return [
    [
      `ConfigMap creates/s on SQLite (WAL, synchronous=NORMAL), in-process, ${CREATE_CONCURRENCY} connections, median of ${ROUNDS} × ${CREATE_LOAD_MS / 1000} s (target ≥ ${TARGET_RATIO * 100}%: ${verdict})`,
      `${sqlite.toFixed(0)}/s (${failures(sqliteRuns)} failed)`,
      `${memory.toFixed(0)}/s (${failures(memoryRuns)} failed; same server on the in-memory backend)`,
      `${(ratio * 100).toFixed(1)}%`,
    ],
  ];
}
