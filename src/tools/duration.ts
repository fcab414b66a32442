import { UsageError } from './command-io.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration as kubectl takes it for --timeout ("30s", "1m30s", "500ms"), in milliseconds. */
export function parseDuration(flag: string, value: string): number {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  const covered = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || covered !== value) throw new UsageError(`invalid argument "${value}" for "--${flag}" flag: expected a duration such as 30s, 2m or 1m30s`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] ?? 's'] ?? 1000), 0);
}
