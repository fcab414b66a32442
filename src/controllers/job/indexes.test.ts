import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatIndexes, parseIndexes } from './indexes.js';

test('completedIndexes: ascending, runs of three or more as a-b (R12.107)', () => {
  assert.equal(formatIndexes([7, 1, 3, 4, 5]), '1,3-5,7');
  assert.equal(formatIndexes([0, 1]), '0,1');
  assert.equal(formatIndexes([]), '');
  assert.deepEqual([...parseIndexes('1,3-5,7', 6)], [1, 3, 4, 5]);
  assert.deepEqual([...parseIndexes('', 3)], []);
});
