import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestUrl } from '../api/request-url.js';
import { encodeQuery, escapePath, forwardedPath } from './forwarded-path.js';

describe('forwardedPath (the aggregator forwards URL.Path, re-escaped, and the sorted query)', () => {
  it('forwards dot segments and empty segments as routed, never resolved', () => {
    assert.equal(forwardedPath(parseRequestUrl('/apis/g/v1/x/../..')), '/apis/g/v1/x/../..');
    assert.equal(forwardedPath(parseRequestUrl('/apis/g/v1/namespaces//things')), '/apis/g/v1/namespaces//things');
  });

  it('re-escapes the decoded path as Go does: reserved path characters kept, "?" and the rest escaped', () => {
    assert.equal(escapePath("/a b/c%d/e?f/$&+,:;=@/~-_./!'()*"), "/a%20b/c%25d/e%3Ff/$&+,:;=@/~-_./%21%27%28%29%2A");
    assert.equal(escapePath('/é'), '/%C3%A9');
    // %2F decodes into the path; Go forwards it as a plain slash.
    assert.equal(forwardedPath(parseRequestUrl('/apis/g/v1/a%2Fb')), '/apis/g/v1/a/b');
  });

  it('sorts keys by bytes, keeps the order of repeated values and escapes as url.QueryEscape', () => {
    assert.equal(encodeQuery(new URLSearchParams('watch=1&b=2&a=z&a=y')), 'a=z&a=y&b=2&watch=1');
    assert.equal(encodeQuery(new URLSearchParams('l=a b*~')), 'l=a+b%2A~');
    assert.equal(forwardedPath(parseRequestUrl('/apis/g/v1?x=1;y=2&k=v')), '/apis/g/v1?k=v');
    assert.equal(forwardedPath(parseRequestUrl('/apis/g/v1')), '/apis/g/v1');
  });
});
