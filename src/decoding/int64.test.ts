import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isInt64Literal, topLevelNumberLiteral } from './int64.js';

describe('int64 literals', () => {
  it('takes integer literals within int64 only', () => {
    assert.equal(isInt64Literal('9223372036854775807'), true);
    assert.equal(isInt64Literal('-9223372036854775808'), true);
    assert.equal(isInt64Literal('9223372036854775808'), false);
    assert.equal(isInt64Literal('-9223372036854775809'), false);
    assert.equal(isInt64Literal('1e3'), false);
    assert.equal(isInt64Literal('1.0'), false);
    assert.equal(isInt64Literal('30'), true);
  });

  it('finds the source text of a top-level number', () => {
    assert.equal(topLevelNumberLiteral('{"gracePeriodSeconds" : 1e30}', 'gracePeriodSeconds'), '1e30');
    assert.equal(topLevelNumberLiteral('{"gracePeriodSeconds":"5"}', 'gracePeriodSeconds'), undefined);
  });
});
