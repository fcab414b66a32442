// Bundles the web UI (web/main.tsx and the model it shares with the server under src/ui/model) into dist/ui/:
// index.html, app.js and app.css, which `cascade ui` and `cascade serve` serve as they are.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'ui');
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: { app: join(root, 'web', 'main.tsx') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});
await copyFile(join(root, 'web', 'index.html'), join(out, 'index.html'));
const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => !file.endsWith('.txt'))
  .map(([file, o]) => `${file.slice(file.lastIndexOf('/') + 1)} ${(o.bytes / 1024).toFixed(0)} KiB`);
if (process.argv.includes('--sizes')) console.log(`dist/ui: ${sizes.join(', ')}`);
