import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pemDecode, pemEncode } from './pem.js';

test('pemEncode wraps base64 at 64 columns and pemDecode reverses it', () => {
  const der = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
  const pem = pemEncode('CERTIFICATE', der);
  const lines = pem.trimEnd().split('\n');
  assert.equal(lines[0], '-----BEGIN CERTIFICATE-----');
  assert.equal(lines.at(-1), '-----END CERTIFICATE-----');
  assert.ok(lines.slice(1, -1).every((line) => line.length <= 64));
  assert.deepEqual(pemDecode(pem, 'CERTIFICATE'), der);
});

test('pemDecode finds the requested label among other blocks', () => {
  const pem = pemEncode('PRIVATE KEY', Buffer.from('key')) + pemEncode('CERTIFICATE', Buffer.from('cert'));
  assert.equal(pemDecode(pem, 'CERTIFICATE').toString(), 'cert');
});

test('pemDecode rejects missing, unterminated and non-base64 blocks', () => {
  assert.throws(() => pemDecode('nothing here', 'CERTIFICATE'), /no "CERTIFICATE" PEM block/);
  assert.throws(() => pemDecode('-----BEGIN CERTIFICATE-----\nAAAA\n', 'CERTIFICATE'), /no END line/);
  assert.throws(() => pemDecode('-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n', 'CERTIFICATE'), /not valid base64/);
});
