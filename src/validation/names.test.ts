import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDns1123Label, isQualifiedName, isValidPathSegmentName } from './names.js';

const NAME_PART_ERROR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('isQualifiedName', () => {
  for (const valid of ['app', 'app.kubernetes.io/name', 'a', 'example.com/My_Name-1', `x/${'a'.repeat(63)}`]) {
    it(`accepts ${valid}`, () => assert.deepEqual(isQualifiedName(valid), []));
  }

  it('reports each problem with apimachinery wording', () => {
    // apimachinery IsQualifiedName (v0.32): the pattern check is not in an else, so "" gets both messages.
    assert.deepEqual(isQualifiedName(''), ['name part must be non-empty', NAME_PART_ERROR]);
    assert.deepEqual(isQualifiedName('-app'), [NAME_PART_ERROR]);
    assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
    assert.deepEqual(isQualifiedName('/app'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('example.com/'), ['name part must be non-empty', NAME_PART_ERROR]);
    assert.match(isQualifiedName('Example.com/app')[0] ?? '', /^prefix part a lowercase RFC 1123 subdomain must consist of/);
    assert.equal(isQualifiedName('a/b/c').length, 1);
    assert.match(isQualifiedName('a/b/c')[0] ?? '', /with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  });
});

describe('isValidPathSegmentName', () => {
  it('rejects dot segments and the characters a path segment cannot hold', () => {
    assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
    assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
    assert.deepEqual(isValidPathSegmentName('web'), []);
  });
});

describe('isDns1123Label', () => {
  it('tells a dotted subdomain it must not contain dots (apimachinery IsDNS1123Label)', () => {
    assert.deepEqual(isDns1123Label('web.v1'), ['must not contain dots']);
  });
});
