import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytes } from '../testing/case-helpers.js';
import { createSqliteBackend } from './backend.js';

/** Paged lists on SQLite: `more` without counting, and counts carried from page to page (issue 29). */
describe('sqlite list paging', () => {
  const filled = async (count: number) => {
    const backend = createSqliteBackend({ path: ':memory:', compactIntervalMs: 0 });
    for (let i = 0; i < count; i++) await backend.create(`/r/k${String(i).padStart(3, '0')}`, bytes(`v${i}`));
    return backend;
  };

  it('reports the true remaining count on every page of a paged list, and on a page read again', async () => {
    const backend = await filled(23);
    const revision = await backend.currentRevision();
    await backend.delete('/r/k010');
    let startKey: string | undefined;
    const seen: Array<[number, number, boolean]> = [];
    for (;;) {
      const page = await backend.list('/r/', { revision, startKey, limit: 5 });
      seen.push([page.kvs.length, page.remaining, page.more]);
      if (!page.more) break;
      startKey = `${page.kvs[page.kvs.length - 1]?.key}\u0000`;
    }
    assert.deepEqual(seen, [
      [5, 18, true],
      [5, 13, true],
      [5, 8, true],
      [5, 3, true],
      [3, 0, false],
    ]);
    const again = await backend.list('/r/', { revision, startKey: '/r/k005\u0000', limit: 5 });
    assert.equal(again.remaining, 12, 'a page read again is counted again');
    const latest = await backend.list('/r/', { startKey: '/r/k005\u0000', limit: 5 });
    assert.equal(latest.remaining, 11, 'another revision has its own count');
    await backend.close();
  });

  it('keeps `more` exact when the caller does not want the count, and for a page ending exactly at the limit', async () => {
    const backend = await filled(10);
    const uncounted = await backend.list('/r/', { limit: 4, countRemaining: false });
    assert.deepEqual([uncounted.kvs.length, uncounted.more, uncounted.remaining], [4, true, 0]);
    const exact = await backend.list('/r/', { limit: 10 });
    assert.deepEqual([exact.kvs.length, exact.more, exact.remaining], [10, false, 0]);
    await backend.close();
  });
});
