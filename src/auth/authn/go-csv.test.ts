import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CsvParseError, readGoCsv } from './go-csv.js';

describe('readGoCsv (Go encoding/csv, variable field count)', () => {
  it('splits records and fields, keeping whitespace and empty fields', () => {
    assert.deepEqual(readGoCsv('a,b,c\n d ,,f,\n'), [
      ['a', 'b', 'c'],
      [' d ', '', 'f', ''],
    ]);
  });

  it('skips blank lines but not lines holding only spaces', () => {
    assert.deepEqual(readGoCsv('\n\na,b\n\n  \n'), [['a', 'b'], ['  ']]);
  });

  it('folds \\r\\n and drops a final \\r', () => {
    assert.deepEqual(readGoCsv('a,b\r\nc,d\r'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and newlines', () => {
    assert.deepEqual(readGoCsv('t,"g1,g2","say ""hi""","two\r\nlines"\n'), [['t', 'g1,g2', 'say "hi"', 'two\nlines']]);
  });

  it('accepts a record without a trailing newline', () => {
    assert.deepEqual(readGoCsv('x,"y"'), [['x', 'y']]);
  });

  it('rejects a bare quote in an unquoted field at its byte column', () => {
    assert.throws(() => readGoCsv('ok,1\nab,c"d\n'), {
      name: 'CsvParseError',
      message: 'parse error on line 2, column 5: bare " in non-quoted-field',
    });
  });

  it('counts columns in bytes, as Go does', () => {
    assert.throws(() => readGoCsv('é,c"d'), { message: 'parse error on line 1, column 5: bare " in non-quoted-field' });
  });

  it('rejects text after a closing quote', () => {
    assert.throws(() => readGoCsv('a,"b"c,d\n'), {
      message: 'parse error on line 1, column 5: extraneous or missing " in quoted-field',
    });
  });

  it('rejects an unterminated quoted field, naming the line where the record started', () => {
    assert.throws(() => readGoCsv('a,"bc'), { message: 'parse error on line 1, column 6: extraneous or missing " in quoted-field' });
    const err = (() => {
      try {
        readGoCsv('a,"b\ncd\n');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(err instanceof CsvParseError);
    assert.equal(err.message, 'record on line 1; parse error on line 2, column 4: extraneous or missing " in quoted-field');
  });
});
