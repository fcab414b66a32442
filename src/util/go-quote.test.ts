import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goQuote } from './go-quote.js';

describe('goQuote', () => {
  const cases: [input: string, quoted: string][] = [
    ['plain', '"plain"'],
    ['a "b" \\c', '"a \\"b\\" \\\\c"'],
    ['tab\tnew\nline', '"tab\\tnew\\nline"'],
    ['\u0001\u007f', '"\\x01\\x7f"'],
    ['héllo', '"héllo"'],
    ['\u00a0', '"\\u00a0"'],
  ];
  for (const [input, quoted] of cases) {
    it(`quotes ${JSON.stringify(input)}`, () => assert.equal(goQuote(input), quoted));
  }
});
