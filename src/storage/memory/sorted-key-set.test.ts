import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SortedKeySet } from './sorted-key-set.js';

/** A deterministic pseudo-random sequence, so failures reproduce. */
function* numbers(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield state;
  }
}

describe('SortedKeySet', () => {
  it('stays sorted and in agreement with a reference set through many adds and deletes', () => {
    const set = new SortedKeySet();
    const reference = new Set<string>();
    const random = numbers(42);
    for (let step = 0; step < 20_000; step++) {
      const key = `/k/${(random.next().value as number) % 3_000}`;
      const adding = (random.next().value as number) % 3 !== 0;
      assert.equal(adding ? set.add(key) : set.delete(key), adding ? !reference.has(key) : reference.has(key));
      if (adding) reference.add(key);
      else reference.delete(key);
    }
    assert.equal(set.size, reference.size);
    assert.deepEqual([...set.from('')], [...reference].sort());
  });

  it('iterates from a start key inclusively, across chunk boundaries', () => {
    const set = new SortedKeySet();
    const keys = Array.from({ length: 2_000 }, (_, i) => `/k/${String(i).padStart(4, '0')}`);
    for (const key of [...keys].reverse()) set.add(key);
    assert.deepEqual([...set.from('/k/1500')], keys.slice(1_500));
    assert.deepEqual([...set.from('/k/1500a')], keys.slice(1_501));
    assert.deepEqual([...set.from('/l')], []);
  });

  it('shrinks back to empty', () => {
    const set = new SortedKeySet();
    for (let i = 0; i < 1_500; i++) set.add(`k${i}`);
    for (let i = 0; i < 1_500; i++) assert.ok(set.delete(`k${i}`));
    assert.equal(set.size, 0);
    assert.deepEqual([...set.from('')], []);
    assert.equal(set.delete('k1'), false);
  });
});
