import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveFormat, matchesFormat } from './formats.js';
import { goFloat } from './go-format.js';

describe('matchesFormat', () => {
  const cases: { format: string; valid: string[]; invalid: string[] }[] = [
    { format: 'email', valid: ['a@b.io', 'Ann <ann@example.com>'], invalid: ['abc', 'a@', '@b.io'] },
    // kube-openapi's hostname pattern: a dot-less name may hold a hyphen only after its first character, and the
    // last label of a dotted name needs two characters.
    { format: 'hostname', valid: ['example.com', 'localhost', 'a-host', 'my-svc.ns.io'], invalid: ['-bad', 'a..b', 'my-host', 'a.b.c'] },
    { format: 'ipv4', valid: ['10.0.0.1'], invalid: ['1.2.3', '256.1.1.1', '::1'] },
    { format: 'ipv6', valid: ['::1', 'fe80::1'], invalid: ['10.0.0.1', 'zz::1'] },
    { format: 'cidr', valid: ['10.0.0.0/8', 'fd00::/64'], invalid: ['10.0.0.0', '10.0.0.0/33'] },
    { format: 'mac', valid: ['01:23:45:67:89:ab', '01-23-45-67-89-ab', '0123.4567.89ab'], invalid: ['01:23:45', 'zz:23:45:67:89:ab'] },
    {
      format: 'uuid',
      valid: ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'],
      invalid: ['123', '123e4567-e89b-12d3-a456'],
    },
    { format: 'uuid4', valid: ['123e4567-e89b-42d3-a456-426614174000'], invalid: ['123e4567-e89b-12d3-a456-426614174000'] },
    { format: 'byte', valid: ['aGVsbG8=', 'YWJj'], invalid: ['hello!', 'abc'] },
    { format: 'date', valid: ['2024-02-29'], invalid: ['2023-02-29', '2024-13-01', '24-01-01'] },
    {
      format: 'date-time',
      valid: ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.123+02:00'],
      invalid: ['2024-01-02', 'yesterday', '2024-01-02T25:00:00Z'],
    },
    { format: 'duration', valid: ['1h30m', '22 ns', '5s'], invalid: ['soon', '1y'] },
    { format: 'uri', valid: ['https://example.com/x', '/abs/path'], invalid: ['relative/path', 'not a uri'] },
    { format: 'password', valid: ['anything'], invalid: [] },
  ];
  for (const c of cases) {
    it(c.format, () => {
      for (const v of c.valid) assert.equal(matchesFormat(c.format, v), true, `${c.format} should accept ${v}`);
      for (const v of c.invalid) assert.equal(matchesFormat(c.format, v), false, `${c.format} should reject ${v}`);
    });
  }
});

describe('effectiveFormat', () => {
  const cases: [string | undefined, string | undefined, string][] = [
    ['string', 'date-time', 'date-time'],
    ['string', 'int32', ''],
    ['string', 'shoe-size', ''],
    ['integer', 'int32', 'int32'],
    ['integer', 'date', ''],
    ['number', 'double', 'double'],
    ['boolean', 'byte', ''],
    [undefined, 'uuid', 'uuid'],
  ];
  for (const [type, format, want] of cases) {
    it(`${type ?? '(none)'} + ${format ?? '(none)'} → ${want || '(ignored)'}`, () => assert.equal(effectiveFormat(type, format), want));
  }
});

describe('goFloat', () => {
  const cases: [number, string][] = [
    [10, '10'],
    [1.5, '1.5'],
    [100000, '100000'],
    [1000000, '1e+06'],
    [123456789, '1.23456789e+08'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
  ];
  for (const [n, want] of cases) it(`${n} → ${want}`, () => assert.equal(goFloat(n), want));
});
