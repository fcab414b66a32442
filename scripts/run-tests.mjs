#!/usr/bin/env node
// Node 20's `node --test` takes file paths, not globs: collect every compiled *.test.js and run them together.
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
const files = roots.flatMap((r) => collect(r, [])).filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files found; run `npm run build` first');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
