import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoNumberError, goBool, parseInt64, parseUint64 } from './go-strconv.js';

describe('goBool (Convert_Slice_string_To_bool)', () => {
  it('is false only when absent, "0" or "false" in any case', () => {
    for (const v of [null, '0', 'false', 'False', 'FALSE', 'fAlSe', 'falſe']) assert.equal(goBool(v), false, String(v));
    for (const v of ['', 'true', 'True', '1', 'yes', 'no', 'off', '00', ' false', 'false ']) assert.equal(goBool(v), true, v);
  });
});

describe('parseInt64 (strconv.ParseInt(s, 10, 64))', () => {
  it('accepts a sign and decimal digits', () => {
    assert.equal(parseInt64('+5'), 5);
    assert.equal(parseInt64('-12'), -12);
    assert.equal(parseInt64('007'), 7);
    assert.equal(parseInt64('-0'), 0);
    assert.equal(parseInt64('9223372036854775807'), 2 ** 63);
    assert.equal(parseInt64('-9223372036854775808'), -(2 ** 63));
  });

  it('words syntax and range errors as strconv does', () => {
    const cases: [string, string][] = [
      ['', 'strconv.ParseInt: parsing "": invalid syntax'],
      ['1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      [' 1', 'strconv.ParseInt: parsing " 1": invalid syntax'],
      ['0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
      ['1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
      ['1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
      ['+', 'strconv.ParseInt: parsing "+": invalid syntax'],
      ['--1', 'strconv.ParseInt: parsing "--1": invalid syntax'],
      ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
      ['-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
      ['99999999999999999999x', 'strconv.ParseInt: parsing "99999999999999999999x": value out of range'],
      ['\u0001', 'strconv.ParseInt: parsing "\\x01": invalid syntax'],
    ];
    for (const [input, message] of cases) {
      assert.throws(() => parseInt64(input), (err: unknown) => err instanceof GoNumberError && err.message === message, input);
    }
  });
});

describe('parseUint64 (strconv.ParseUint(s, 10, 64))', () => {
  it('accepts decimal digits up to 2^64-1', () => {
    assert.equal(parseUint64('42'), 42n);
    assert.equal(parseUint64('18446744073709551615'), 18446744073709551615n);
  });

  it('rejects a sign, spaces, other bases and exponents', () => {
    const cases: [string, string][] = [
      ['+1', 'strconv.ParseUint: parsing "+1": invalid syntax'],
      ['-1', 'strconv.ParseUint: parsing "-1": invalid syntax'],
      [' 1', 'strconv.ParseUint: parsing " 1": invalid syntax'],
      ['0x10', 'strconv.ParseUint: parsing "0x10": invalid syntax'],
      ['1e3', 'strconv.ParseUint: parsing "1e3": invalid syntax'],
      ['18446744073709551616', 'strconv.ParseUint: parsing "18446744073709551616": value out of range'],
    ];
    for (const [input, message] of cases) {
      assert.throws(() => parseUint64(input), (err: unknown) => err instanceof GoNumberError && err.message === message, input);
    }
  });
});
