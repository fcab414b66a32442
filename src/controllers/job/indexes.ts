/**
 * Completion indexes as Job status writes them (`status.completedIndexes`, `status.failedIndexes`, a successPolicy's
 * `succeededIndexes`): ascending, comma-separated, runs of three or more as `first-last` (R12.107).
 */

/** The indexes an interval list names, below `limit`; malformed parts are skipped (validation refused them already). */
export function parseIndexes(text: string | undefined, limit: number): Set<number> {
  const result = new Set<number>();
  if (text === undefined || text === '') return result;
  for (const part of text.split(',')) {
    const [first, last = first] = part.split('-');
    const x = Number(first);
    const y = Number(last);
    if (!Number.isInteger(x) || !Number.isInteger(y)) continue;
    for (let i = x; i <= y && i < limit; i++) result.add(i);
  }
  return result;
}

export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    const first = sorted[i] as number;
    const last = sorted[j] as number;
    // A run of two is written as two single indexes, as upstream's interval printer does.
    if (last === first) parts.push(String(first));
    else if (last === first + 1) parts.push(String(first), String(last));
    else parts.push(`${first}-${last}`);
    i = j + 1;
  }
  return parts.join(',');
}
