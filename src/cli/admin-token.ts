import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The bearer token of user cascade-admin (group system:masters): generated on first start and kept in the data
 * dir, so the kubeconfig written on later starts keeps working.
 */
export async function loadOrCreateAdminToken(dataDir: string): Promise<string> {
  const path = join(dataDir, 'auth', 'admin-token');
  try {
    const token = (await readFile(path, 'utf8')).trim();
    if (token === '') throw new Error(`${path} is empty; delete it to generate a new admin token`);
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const token = randomBytes(32).toString('base64url');
  await mkdir(dirname(path), { recursive: true });
  // Written whole then renamed: a crash never leaves a truncated token that no kubeconfig matches.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${token}\n`, { mode: 0o600 });
  await rename(temporary, path);
  return token;
}
