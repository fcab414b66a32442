import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchScaleCascades, benchScaleMillion } from './scale.js';

/**
 * Only issue 29's figures, printed and not recorded (`node dist/bench/scale-main.js [cascades|million]`, both by
 * default; SCALE_OBJECTS sets the million-object store's
 * size, SCALE_STORAGE=memory runs the cascades' server on the memory backend).
 */
async function main(): Promise<void> {
  const part = process.argv[2] ?? 'all';
  const dir = await mkdtemp(join(tmpdir(), 'cascade-scale-'));
  try {
    const rows = [
      ...(part === 'all' || part === 'cascades' ? await benchScaleCascades(dir) : []),
      ...(part === 'all' || part === 'million' ? await benchScaleMillion(dir) : []),
    ];
    for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
