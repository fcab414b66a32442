import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isUnspecifiedAddress, parseHost, subjectAltNamesFor } from './hosts.js';

test('parseHost tells IP addresses from DNS names and canonicalises both', () => {
  assert.deepEqual(parseHost('10.1.2.3'), { kind: 'ip', address: '10.1.2.3' });
  assert.deepEqual(parseHost('[::1]'), { kind: 'ip', address: '::1' });
  assert.deepEqual(parseHost('0:0:0:0:0:0:0:1'), { kind: 'ip', address: '::1' });
  assert.deepEqual(parseHost('FE80:0::AB'), { kind: 'ip', address: 'fe80::ab' });
  assert.deepEqual(parseHost('::ffff:1.2.3.4'), { kind: 'ip', address: '::ffff:102:304' });
  assert.deepEqual(parseHost('API.Example.COM.'), { kind: 'dns', name: 'api.example.com' });
  assert.deepEqual(parseHost('*.apps.example.com'), { kind: 'dns', name: '*.apps.example.com' });
});

test('parseHost rejects what a certificate cannot name', () => {
  assert.throws(() => parseHost(''), /empty host/);
  assert.throws(() => parseHost('fe80::1%eth0'), /zone index/);
  assert.throws(() => parseHost('not a host'), /neither an IP address nor a valid DNS name/);
  assert.throws(() => parseHost('-bad.example'), /neither/);
});

test('subjectAltNamesFor splits and de-duplicates', () => {
  assert.deepEqual(subjectAltNamesFor(['localhost', '127.0.0.1', '::1', '[::1]', 'LOCALHOST']), {
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1', '::1'],
  });
});

test('wildcard listen addresses are recognised as unspecified', () => {
  assert.equal(isUnspecifiedAddress(parseHost('0.0.0.0')), true);
  assert.equal(isUnspecifiedAddress(parseHost('::')), true);
  assert.equal(isUnspecifiedAddress(parseHost('[::]')), true);
  assert.equal(isUnspecifiedAddress(parseHost('127.0.0.1')), false);
});
