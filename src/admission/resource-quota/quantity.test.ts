import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { add, formatQuantity, parseQuantity } from './quantity.js';

describe('quota quantities', () => {
  it('keeps the format of what was written and prints Go canonical text', () => {
    assert.equal(formatQuantity(add(parseQuantity('1Gi'), parseQuantity('512Mi'))), '1536Mi');
    assert.equal(formatQuantity(add(parseQuantity('100m'), parseQuantity('1.5'))), '1600m');
    assert.equal(parseQuantity('1e3').format, 'DecimalExponent');
  });

  it('caps a hostile exponent as Go does instead of expanding it into a billion-digit integer', () => {
    assert.equal(formatQuantity(parseQuantity('1e999999999')), '9223372036854775807');
  });
});
