import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nestingDepth } from './nesting.js';

describe('nestingDepth', () => {
  it('counts containers, not scalars', () => {
    assert.equal(nestingDepth('x'), 0);
    assert.equal(nestingDepth([]), 1);
    assert.equal(nestingDepth({ a: [1, { b: {} }], c: 2 }), 4);
  });

  it('walks without recursion and stops once past the limit', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(nestingDepth(deep, 10), 11);
    assert.equal(nestingDepth(deep, 200_000), 100_000);
  });
});
