import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { actors } from '../fuzz/actors.js';
import { runFuzz } from '../fuzz/harness.js';
import { parseSeed } from '../fuzz/random.js';
import { formatReport } from '../fuzz/report.js';
import type { FuzzRequest } from '../fuzz/request.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 19: a seeded, bounded fuzz campaign over HTTPS as six users with different rights. Invariants: no 5xx, no
// reset or hang, every 4xx a Status, /readyz stays 200, nothing half-written, nobody reaches what RBAC denies.
// CASCADE_FUZZ_SEED picks the seed (printed), CASCADE_FUZZ_REQUESTS the size, CASCADE_FUZZ_ONLY=3,17 replays
// single requests, CASCADE_FUZZ_CONCURRENCY the parallel connections. See docs/fuzzing.md.

const DEFAULT_SEED = 19;
const DEFAULT_REQUESTS = 6000;

function intEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return value;
}

const seed = process.env.CASCADE_FUZZ_SEED ? parseSeed(process.env.CASCADE_FUZZ_SEED) : DEFAULT_SEED;
const requests = intEnv('CASCADE_FUZZ_REQUESTS', DEFAULT_REQUESTS);
const concurrency = intEnv('CASCADE_FUZZ_CONCURRENCY', 4);
const only = process.env.CASCADE_FUZZ_ONLY?.split(',').map((s) => {
  const i = Number(s.trim());
  if (!Number.isSafeInteger(i) || i < 0) throw new Error(`CASCADE_FUZZ_ONLY: not a request index: ${JSON.stringify(s)}`);
  return i;
});

describe('wire fuzzing (issue 19)', () => {
  let ts: TestServer;

  before(async () => {
    const tokens = Object.fromEntries(
      actors('')
        .filter((a) => a.name !== 'admin' && a.name !== 'bad-token' && a.token !== undefined)
        .map((a) => [a.token as string, { name: a.user, groups: ['system:authenticated'] }]),
    );
    ts = await startTestServer({ secure: { tokens } });
  });
  after(() => ts.stop());

  it(`keeps every invariant over ${only === undefined ? requests : only.length} seeded hostile requests (seed ${seed})`, {
    timeout: 30 * 60_000,
  }, async (t) => {
    t.diagnostic(`seed ${seed}, ${only === undefined ? `${requests} requests` : `requests ${only.join(',')}`}, concurrency ${concurrency}`);
    // The server runs in this process: its heap, sampled between batches, shows whether hostile input is held on to.
    const heapMb: number[] = [];
    const onProgress = (done: number): void => {
      heapMb.push(Math.round(process.memoryUsage().heapUsed / 2 ** 20));
      if (done % 2500 === 0) console.log(`fuzz: ${done} requests sent, heap ${heapMb[heapMb.length - 1]} MB`);
    };
    // CASCADE_FUZZ_TRACE=<file>: one line per request as it is sent, kept even when the process dies.
    const tracePath = process.env.CASCADE_FUZZ_TRACE;
    const onSend =
      tracePath === undefined || tracePath === ''
        ? undefined
        : (q: FuzzRequest): void =>
            appendFileSync(tracePath, `${q.index} ${q.actor} ${q.category}/${q.variant} ${q.method} ${q.path.slice(0, 200)}\n`);
    const result = await runFuzz(ts, { seed, requests, concurrency, only, onProgress, onSend });
    const count = (m: Map<string, number>): string =>
      [...m.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
    t.diagnostic(
      `sent ${result.sent} requests (${result.probed} probed) in ${(result.elapsedMs / 1000).toFixed(1)} s; answers: ${count(result.byStatus)}`,
    );
    t.diagnostic(`categories: ${count(result.byCategory)}`);
    if (heapMb.length > 0)
      t.diagnostic(`heap between batches: ${Math.min(...heapMb)}–${Math.max(...heapMb)} MB, last ${heapMb[heapMb.length - 1]} MB`);
    if (result.failures.total > 0) console.log(formatReport(result.failures, seed));
    assert.equal(
      result.failures.total,
      0,
      `fuzzing found ${result.failures.total} violations (seed ${seed}); the classes are printed above`,
    );
  });
});
