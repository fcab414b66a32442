import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldRequirement, parseFieldSelector } from './field-selector.js';
import { SelectorError } from './selector-error.js';

describe('parseFieldSelector: valid input', () => {
  const cases: [input: string, requirements: FieldRequirement[]][] = [
    ['', []],
    ['metadata.name=foo', [{ field: 'metadata.name', operator: '=', value: 'foo' }]],
    ['a==b', [{ field: 'a', operator: '=', value: 'b' }]],
    ['a!=b', [{ field: 'a', operator: '!=', value: 'b' }]],
    ['a=', [{ field: 'a', operator: '=', value: '' }]],
    [
      'b=2,a=1',
      [
        { field: 'a', operator: '=', value: '1' },
        { field: 'b', operator: '=', value: '2' },
      ],
    ],
    ['a=b,,', [{ field: 'a', operator: '=', value: 'b' }]],
    ['a=b\\,c', [{ field: 'a', operator: '=', value: 'b,c' }]],
    ['a=b\\=c', [{ field: 'a', operator: '=', value: 'b=c' }]],
    ['a=b\\\\c', [{ field: 'a', operator: '=', value: 'b\\c' }]],
    [' a = b ', [{ field: ' a ', operator: '=', value: ' b ' }]],
  ];
  for (const [input, requirements] of cases) {
    it(`parses ${JSON.stringify(input)}`, () => {
      const selector = parseFieldSelector(input);
      assert.deepEqual(selector.requirements, requirements);
      assert.equal(selector.empty, requirements.length === 0);
    });
  }
});

describe('parseFieldSelector: invalid input', () => {
  const cases: [input: string, message: string][] = [
    ['abc', "invalid selector: 'abc'; can't understand 'abc'"],
    ['a=b,xyz', "invalid selector: 'a=b,xyz'; can't understand 'xyz'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a==b,c', "invalid selector: 'a==b,c'; can't understand 'c'"],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of cases) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(() => parseFieldSelector(input), new SelectorError(message));
    });
  }
});

describe('FieldSelector.matches', () => {
  const fields = { 'metadata.name': 'web', 'spec.nodeName': '' };
  const cases: [selector: string, expected: boolean][] = [
    ['', true],
    ['metadata.name=web', true],
    ['metadata.name!=web', false],
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['status.phase=', true],
    ['status.phase=Running', false],
    ['metadata.name=web,spec.nodeName=', true],
  ];
  for (const [selector, expected] of cases) {
    it(`${JSON.stringify(selector)} → ${expected}`, () => {
      assert.equal(parseFieldSelector(selector).matches(fields), expected);
    });
  }

  it('reports the exact value a selector requires', () => {
    assert.equal(parseFieldSelector('metadata.name=web,a!=b').requiresExactMatch('metadata.name'), 'web');
    assert.equal(parseFieldSelector('a!=b').requiresExactMatch('a'), undefined);
  });
});
