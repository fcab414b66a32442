import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuSeconds } from './cpu.js';
import { benchApply } from './apply.js';
import { benchArchive } from './archive-cost.js';
import { benchCrdServing } from './crd.js';
import { benchAdmissionPolicy } from './admission-policy.js';
import { benchCrdRules } from './crd-rules.js';
import { benchGarbageCollector, gcTable } from './gc.js';
import { CONFIGMAPS_PATH, CREATE_CONCURRENCY, CREATE_LOAD_MS, configMapBody, postLoad } from './load.js';
import { benchSqlite } from './sqlite.js';
import { benchEtcd } from './etcd.js';
import { benchEtcdCluster } from './etcd-cluster.js';
import { benchNamespaceDeletion } from './namespace.js';
import { benchNodes } from './nodes.js';
import { benchProtection } from './protection.js';
import { benchScale } from './scale.js';
import { benchValidation } from './validation.js';
import { benchWorkloads } from './workloads.js';
import { benchEmbeddedStart } from './embed-start.js';
import { benchUi } from './ui.js';
import { startProcess } from './process.js';
import { median } from './stats.js';

/**
 * `npm run bench`: every figure is reported next to a baseline measured in the same run on the same machine,
 * because these machines are noisy. Results are appended to BENCHMARKS.md.
 */
const CASCADE = ['dist/src/cli/main.js', 'serve', '--secure-port', '0'];
const BASELINE = ['dist/bench/baseline-server.js'];
const STARTS = 5;
const ROUNDS = 3;

interface Measured {
  perSecond: number;
  cpuMicros: number;
  failures: number;
}

/** Starts a server, drives creates at it, and reads how much CPU the server process spent per request. */
async function measureCreates(args: string[], path: string): Promise<Measured> {
  const server = await startProcess(args);
  const pid = server.child.pid ?? 0;
  const cpuBefore = processCpuSeconds(pid) ?? Number.NaN;
  const load = await postLoad({
    url: server.url,
    path,
    concurrency: CREATE_CONCURRENCY,
    durationMs: CREATE_LOAD_MS,
    expectStatus: 201,
    body: configMapBody,
  });
  const cpuAfter = processCpuSeconds(pid) ?? Number.NaN;
  await server.stop();
  return { perSecond: load.perSecond, cpuMicros: ((cpuAfter - cpuBefore) / Math.max(load.requests, 1)) * 1e6, failures: load.failures };
}

async function startTimes(args: string[], dataDir: string | undefined): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const p = await startProcess(dataDir === undefined ? args : [...args, '--data-dir', join(dataDir, String(i))]);
    times.push(p.readyMs);
    await p.stop();
  }
  return median(times);
}

const HEADER =
  '# Benchmarks\n\nProduced by `npm run bench` (bench/index.ts). Each figure sits next to a baseline measured in the same run.\n' +
  'The newest run comes first; every earlier run, with its reading, is kept under History, oldest first.\n';
const HISTORY = '\n# History\n';

/**
 * BENCHMARKS.md with `section` as the current run: the run it replaces (and any reading written under it) moves to
 * the end of History, so the file always opens with one current table and keeps every earlier one.
 */
function withCurrentRun(existing: string, section: string): string {
  const firstRun = existing.indexOf('\n## ');
  if (firstRun < 0) return `${HEADER}${section}${HISTORY}`;
  const historyAt = existing.indexOf(HISTORY);
  const previous = historyAt < 0 ? existing.slice(firstRun) : existing.slice(firstRun, historyAt);
  const history = historyAt < 0 ? '' : existing.slice(historyAt + HISTORY.length);
  return `${HEADER}${section}${HISTORY}${history.trimEnd()}\n${previous.trimEnd()}\n`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cascade-bench-'));
  try {
    const baselineStart = await startTimes(BASELINE, undefined);
    const cascadeStart = await startTimes(CASCADE, dir);

    // Alternate the two servers so that noise from other work on the machine hits both alike; report medians.
    const bareRuns: Measured[] = [];
    const apiRuns: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await measureCreates(BASELINE, '/'));
      // The foundation figure is the API server itself, on the in-memory backend; SQLite and etcd are measured below.
      // Plain HTTP on both sides (the baseline has no TLS); authorization still runs, as the admin.
      apiRuns.push(
        await measureCreates(
          [...CASCADE, '--storage', 'memory', '--insecure-http=true', '--data-dir', join(dir, `load-${round}`)],
          CONFIGMAPS_PATH,
        ),
      );
    }
    const bare = { perSecond: median(bareRuns.map((r) => r.perSecond)), cpuMicros: median(bareRuns.map((r) => r.cpuMicros)) };
    const api = {
      perSecond: median(apiRuns.map((r) => r.perSecond)),
      cpuMicros: median(apiRuns.map((r) => r.cpuMicros)),
      failures: apiRuns.reduce((n, r) => n + r.failures, 0),
    };

    const rows = [
      [
        'process start → /readyz 200, defaults (HTTPS, PKI generated, SQLite) in a fresh data dir (median of 5)',
        `${cascadeStart.toFixed(0)} ms`,
        `${baselineStart.toFixed(0)} ms (bare node:http)`,
        `${(cascadeStart / baselineStart).toFixed(2)}×`,
      ],
      [
        `ConfigMap creates/s, ${CREATE_CONCURRENCY} connections, median of ${ROUNDS} × ${CREATE_LOAD_MS / 1000} s`,
        `${api.perSecond.toFixed(0)}/s (${api.failures} failed)`,
        `${bare.perSecond.toFixed(0)}/s (bare node:http parse + 201)`,
        `${((api.perSecond / bare.perSecond) * 100).toFixed(1)}%`,
      ],
      [
        'server CPU per create (user + system, from /proc)',
        `${api.cpuMicros.toFixed(0)} µs`,
        `${bare.cpuMicros.toFixed(0)} µs`,
        `${(api.cpuMicros / bare.cpuMicros).toFixed(2)}×`,
      ],
    ];
    rows.push(...(await benchEmbeddedStart()));
    const gc = gcTable(await benchGarbageCollector());
    rows.push(...(await benchArchive()));
    rows.push(...(await benchNamespaceDeletion()));
    rows.push(...(await benchWorkloads()));
    rows.push(...(await benchNodes()));
    rows.push(...(await benchProtection()));
    rows.push(...(await benchCrdServing()));
    rows.push(...(await benchCrdRules()));
    rows.push(...(await benchAdmissionPolicy()));
    rows.push(...(await benchValidation()));
    rows.push(...(await benchApply()));
    rows.push(...(await benchSqlite()));
    rows.push(...(await benchEtcd()));
    rows.push(...(await benchEtcdCluster()));
    rows.push(...(await benchUi()));
    rows.push(...(await benchScale()));
    const table = [
      '| measure | Cascade | baseline (same run) | ratio |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    const stamp = new Date().toISOString();
    const section = `\n## ${stamp} (node ${process.version}, \`npm run bench\`)\n\n${table}\n\n${gc}\n`;
    process.stdout.write(`${section}\n`);
    let existing = '';
    try {
      existing = await readFile('BENCHMARKS.md', 'utf8');
    } catch {
      existing = '';
    }
    await writeFile('BENCHMARKS.md', withCurrentRun(existing, section));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
