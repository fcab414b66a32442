import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeHash, safeEncodeString } from './hash.js';

test('SafeEncodeString maps each character onto bcdfghjklmnpqrstvwxz2456789 by code point (rand.SafeEncodeString)', () => {
  // '0' is 48, 48 % 27 = 21 → '4'; '9' is 57, 57 % 27 = 3 → 'f'.
  assert.equal(safeEncodeString('0'), '4');
  assert.equal(safeEncodeString('9'), 'f');
  assert.equal(safeEncodeString('1234567890'), '56789bcdf4');
});

test('ComputeHash is stable for equal templates, whatever their key order, and changes with template or collisionCount', () => {
  const a = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  const b = { spec: { containers: [{ image: 'nginx', name: 'c' }] }, metadata: { labels: { app: 'web' } } };
  assert.equal(computeHash(a, undefined), computeHash(b, undefined));
  assert.match(computeHash(a, undefined), /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  assert.notEqual(computeHash(a, undefined), computeHash({ ...a, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }, undefined));
  assert.notEqual(computeHash(a, undefined), computeHash(a, 1));
  assert.notEqual(computeHash(a, 1), computeHash(a, 2));
});
