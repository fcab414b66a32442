import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goQuote, goTimeQuote } from './go-quote.js';

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

describe('goTimeQuote', () => {
  // Unlike strconv.Quote, time's quoting keeps no named escapes and writes every non-ASCII rune as its UTF-8 bytes.
  const cases: [input: string, quoted: string][] = [
    ['1d', '"1d"'],
    ['a "b" \\c', '"a \\"b\\" \\\\c"'],
    ['tab\t\u007f', '"tab\\x09\u007f"'],
    ['1µs', '"1\\xc2\\xb5s"'],
  ];
  for (const [input, quoted] of cases) {
    it(`quotes ${JSON.stringify(input)}`, () => assert.equal(goTimeQuote(input), quoted));
  }
});
