import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entriesToPrune, type StoredEntry } from './retention.js';

const entry = (n: number, size = 10): StoredEntry => ({ key: `/k/${n}`, modRevision: n, size });

describe('archive retention (issue 28)', () => {
  const entries = [entry(1), entry(2), entry(3), entry(4), entry(5)];
  const deletedAt = (e: StoredEntry): number => e.modRevision * 1000;

  it('prunes the entries older than the retention, by deletion time', async () => {
    const doomed = await entriesToPrune(entries, deletedAt, { retentionMs: 2500, maxBytes: 1000 }, 5000);
    assert.deepEqual(
      doomed.map((e) => e.modRevision),
      [1, 2],
    );
  });

  it('prunes the oldest until the rest fits in maxBytes', async () => {
    const doomed = await entriesToPrune(entries, deletedAt, { retentionMs: 1e9, maxBytes: 25 }, 5000);
    assert.deepEqual(
      doomed.map((e) => e.modRevision),
      [1, 2, 3],
    );
  });

  it('asks for the deletion time of O(log n) entries only', async () => {
    const many = Array.from({ length: 1024 }, (_, i) => entry(i + 1));
    let asked = 0;
    const doomed = await entriesToPrune(
      many,
      (e) => {
        asked++;
        return deletedAt(e);
      },
      { retentionMs: 500_000, maxBytes: 1e9 },
      1_000_000,
    );
    assert.equal(doomed.length, 499);
    assert.ok(asked <= 11, `asked ${asked} times`);
  });

  it('keeps everything within both bounds', async () => {
    assert.deepEqual(await entriesToPrune(entries, deletedAt, { retentionMs: 1e9, maxBytes: 1e9 }, 5000), []);
  });
});
