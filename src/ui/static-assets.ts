import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundle scripts/build-ui.mjs writes: dist/ui next to dist/src. */
export const UI_ASSET_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'ui');

const TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The app's few files by name; anything else is not an asset (no path from the URL ever reaches the file system). */
export async function serveAsset(res: ServerResponse, name: string): Promise<boolean> {
  const file = name === '' ? 'index.html' : name;
  const type = TYPES[file];
  if (type === undefined) return false;
  let body: Buffer;
  try {
    body = await readFile(join(UI_ASSET_DIR, file));
  } catch {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(`the web UI is not built: ${join(UI_ASSET_DIR, file)} is missing (run npm run build)\n`);
    return true;
  }
  res.writeHead(200, {
    'Content-Type': type,
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': "default-src 'self'; style-src 'self' 'unsafe-inline'",
  });
  res.end(body);
  return true;
}
