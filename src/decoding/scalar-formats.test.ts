import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Error, quantityError, timestampError } from './scalar-formats.js';

describe('timestampError', () => {
  for (const valid of ['2024-01-01T00:00:00Z', '2024-12-31T23:59:59.999999+05:30', '0001-02-31T00:00:00-00:00']) {
    it(`accepts ${valid}`, () => assert.equal(timestampError(valid), undefined));
  }

  const invalid: [string, string][] = [
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-01-00T00:00:00Z', 'parsing time "2024-01-00T00:00:00Z": day out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['2024-01-01T00:60:00Z', 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
    ['2024-01-01T00:00:60Z', 'parsing time "2024-01-01T00:00:60Z": second out of range'],
    ['2024-01-01T00:00:00', 'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
    ['2024-01-01T00:00:00Zx', 'parsing time "2024-01-01T00:00:00Zx": extra text: "x"'],
  ];
  for (const [text, message] of invalid) {
    it(`rejects ${text} with Go's message`, () => assert.equal(timestampError(text), message));
  }
});

describe('base64Error', () => {
  for (const valid of ['', 'aGk=', 'aGVsbG8=', 'YWJj', 'YWJj\nZGVm', 'aGk=\r\n']) {
    it(`accepts ${JSON.stringify(valid)}`, () => assert.equal(base64Error(valid), undefined));
  }
  const invalid: [string, number][] = [
    ['aGk', 0],
    ['a===', 1],
    ['aGk=x', 4],
    ['aG-k', 2],
  ];
  for (const [text, offset] of invalid) {
    it(`rejects ${JSON.stringify(text)} at byte ${offset}`, () => assert.equal(base64Error(text), `illegal base64 data at input byte ${offset}`));
  }
});

describe('quantityError', () => {
  it('accepts quantities as strings and numbers', () => {
    for (const q of ['100m', '1Gi', ' 2 ', '1e3', '0.5', 3]) assert.equal(quantityError(q), undefined);
  });
  it('reports a malformed quantity and an unknown suffix', () => {
    assert.equal(quantityError('1 core'), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    assert.equal(quantityError('5Ki5'), "unable to parse quantity's suffix");
  });
});
