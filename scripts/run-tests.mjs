#!/usr/bin/env node
// Node 20's `node --test` takes file paths, not globs: collect every compiled *.test.js and run them together.
// Then the lifecycle, garbage collector and namespace suites run again on the durable backends (issue 7).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir, out) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (entry.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const roots = ['dist/src', 'dist/test'].filter((d) => {
  try {
    return statSync(d).isDirectory();
  } catch {
    return false;
  }
});
const filter = process.argv.slice(2);
const all = roots.flatMap((r) => collect(r, []));
const files = all.filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files found; run `npm run build` first');
  process.exit(1);
}

function run(label, testFiles, env) {
  if (label !== '') console.log(`\n# ${label}`);
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...testFiles], { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

let status = run('', files, {});
if (filter.length === 0) {
  const lifecycle = /\/(deletion-|gc-cascade|gc-invalid-refs|namespace-)[^/]*\.test\.js$/;
  const suites = all.filter((f) => lifecycle.test(f));
  status = run('lifecycle, garbage collector and namespace suites on SQLite', suites, { CASCADE_TEST_STORAGE: 'sqlite' }) || status;
  status = run('lifecycle, garbage collector and namespace suites on etcd', suites, { CASCADE_TEST_STORAGE: 'etcd' }) || status;
}
process.exit(status);
