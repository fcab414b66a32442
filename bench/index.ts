import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postLoad } from './load.js';
import { startProcess } from './process.js';

/**
 * `npm run bench`: every figure is reported next to a baseline measured in the same run on the same machine,
 * because these machines are noisy. Results are appended to BENCHMARKS.md.
 */
const CASCADE = ['dist/src/cli/main.js', 'serve', '--secure-port', '0'];
const BASELINE = ['dist/bench/baseline-server.js'];
const STARTS = 5;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 5000);
const CONCURRENCY = 32;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
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

const configMap = (i: number): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bench-${i}` }, data: { key: 'value', index: String(i) } });

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cascade-bench-'));
  try {
    const baselineStart = await startTimes(BASELINE, undefined);
    const cascadeStart = await startTimes(CASCADE, dir);

    const baseline = await startProcess(BASELINE);
    const bare = await postLoad({ url: baseline.url, path: '/', concurrency: CONCURRENCY, durationMs: LOAD_MS, expectStatus: 201, body: configMap });
    await baseline.stop();

    const cascade = await startProcess([...CASCADE, '--data-dir', join(dir, 'load')]);
    const api = await postLoad({
      url: cascade.url,
      path: '/api/v1/namespaces/default/configmaps',
      concurrency: CONCURRENCY,
      durationMs: LOAD_MS,
      expectStatus: 201,
      body: configMap,
    });
    await cascade.stop();

    const rows = [
      ['process start → /readyz 200 (median of 5)', `${cascadeStart.toFixed(0)} ms`, `${baselineStart.toFixed(0)} ms (bare node:http)`, `${(cascadeStart / baselineStart).toFixed(2)}×`],
      [
        `ConfigMap creates/s, ${CONCURRENCY} connections, ${LOAD_MS / 1000} s`,
        `${api.perSecond.toFixed(0)}/s (${api.failures} failed)`,
        `${bare.perSecond.toFixed(0)}/s (bare node:http parse + 201)`,
        `${((api.perSecond / bare.perSecond) * 100).toFixed(1)}%`,
      ],
    ];
    const table = ['| measure | Cascade | baseline (same run) | ratio |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
    const stamp = new Date().toISOString();
    const section = `\n## ${stamp} (node ${process.version}, \`npm run bench\`)\n\n${table}\n`;
    process.stdout.write(`${section}\n`);
    let existing = '';
    try {
      existing = await readFile('BENCHMARKS.md', 'utf8');
    } catch {
      existing = '# Benchmarks\n\nProduced by `npm run bench` (bench/index.ts). Each figure sits next to a baseline measured in the same run.\n';
    }
    await writeFile('BENCHMARKS.md', existing + section);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
