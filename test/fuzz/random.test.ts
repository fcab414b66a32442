import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mix32, parseSeed, Random } from './random.js';

describe('fuzz PRNG', () => {
  it('repeats the same sequence for the same seed and request index', () => {
    const a = Random.forRequest(42, 7);
    const b = Random.forRequest(42, 7);
    const first = Array.from({ length: 20 }, () => a.uint32());
    assert.deepEqual(
      Array.from({ length: 20 }, () => b.uint32()),
      first,
    );
    const other = Random.forRequest(42, 8);
    assert.notDeepEqual(
      Array.from({ length: 20 }, () => other.uint32()),
      first,
    );
  });

  it('keeps every helper inside its range', () => {
    const r = new Random(1);
    for (let i = 0; i < 2000; i++) {
      const f = r.float();
      assert.ok(f >= 0 && f < 1);
      const n = r.between(-3, 3);
      assert.ok(n >= -3 && n <= 3 && Number.isInteger(n));
    }
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(r.int(5));
    assert.deepEqual([...seen].sort(), [0, 1, 2, 3, 4]);
  });

  it('weighted never picks a zero-weight entry', () => {
    const r = new Random(9);
    for (let i = 0; i < 1000; i++)
      assert.notEqual(
        r.weighted([
          [0, 'never'],
          [1, 'a'],
          [3, 'b'],
        ] as const),
        'never',
      );
  });

  it('parses decimal and hex seeds and refuses anything else', () => {
    assert.equal(parseSeed('123'), 123);
    assert.equal(parseSeed('0xff'), 255);
    assert.throws(() => parseSeed('12abc'));
    assert.throws(() => parseSeed('0x1ffffffff'));
    assert.throws(() => parseSeed(''));
  });

  it('mixes neighbouring inputs apart', () => {
    assert.notEqual(mix32(1), mix32(2));
    assert.ok(mix32(0) > 0);
  });
});
