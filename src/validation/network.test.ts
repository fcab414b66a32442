import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDomainPrefixedPath, isStrictSubnet, isValidPortName, isValidPortNum, isWildcardDns1123Subdomain, parseCidr } from './network.js';

test('port numbers and names with apimachinery messages', () => {
  assert.deepEqual(isValidPortNum(80), []);
  assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortName('http'), []);
  assert.deepEqual(isValidPortName('-8080-'), ['must contain at least one letter (a-z)', 'must not begin or end with a hyphen']);
  assert.deepEqual(isValidPortName('a--B'), [
    'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    'must not contain consecutive hyphens',
  ]);
});

test('wildcard hosts and domain-prefixed paths', () => {
  assert.deepEqual(isWildcardDns1123Subdomain('*.example.com'), []);
  assert.equal(isWildcardDns1123Subdomain('a.*.com').length, 1);
  assert.deepEqual(isDomainPrefixedPath('spec.controller', 'acme.io/ingress'), []);
  assert.equal(isDomainPrefixedPath('spec.controller', 'acme')[0]?.detail, 'must be a domain-prefixed path (such as "acme.io/foo")');
  assert.equal(isDomainPrefixedPath('spec.controller', '')[0]?.type, 'FieldValueRequired');
});

test('CIDRs and strict subnets', () => {
  const outer = parseCidr('10.0.0.0/8');
  const inner = parseCidr('10.1.0.0/16');
  assert.ok(outer && inner);
  assert.equal(parseCidr('10.0.0.0'), undefined);
  assert.equal(parseCidr('10.0.0.0/33'), undefined);
  assert.equal(isStrictSubnet(inner, outer), true);
  assert.equal(isStrictSubnet(outer, outer), false);
  assert.equal(isStrictSubnet(parseCidr('11.0.0.0/16') ?? inner, outer), false);
  assert.equal(isStrictSubnet(parseCidr('2001:db8::/64') ?? inner, outer), false);
  assert.equal(isStrictSubnet(parseCidr('2001:db8:0:1::/64') ?? inner, parseCidr('2001:db8::/48') ?? outer), true);
});
