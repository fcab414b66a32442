import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * Writes beside the target, flushes, then renames over it: a reader (or the next start after a
 * crash) sees either the old file or the complete new one, never a partial key.
 */
export function writeFileAtomic(path: string, contents: string, mode: number): void {
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  // 'wx' refuses to follow anything already sitting at the temporary name.
  const fd = openSync(temporary, 'wx', mode);
  try {
    try {
      writeSync(fd, contents);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Undefined when the file does not exist; any other failure (permissions, a directory) propagates. */
export function readFileIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
