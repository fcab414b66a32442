import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from './errors.js';
import { parseRequestUrl } from './request-url.js';

function split(target: string): { pathname: string; params: [string, string][] } {
  const parsed = parseRequestUrl(target);
  return { pathname: parsed.pathname, params: [...parsed.searchParams] };
}

describe('parseRequestUrl (Go net/http URL.Path and URL.Query())', () => {
  it('keeps plain API paths and queries as they are', () => {
    assert.deepEqual(split('/api/v1/pods?watch=1&resourceVersion=42&allowWatchBookmarks=true'), {
      pathname: '/api/v1/pods',
      params: [
        ['watch', '1'],
        ['resourceVersion', '42'],
        ['allowWatchBookmarks', 'true'],
      ],
    });
    assert.deepEqual(split('/'), { pathname: '/', params: [] });
    assert.deepEqual(split(''), { pathname: '/', params: [] });
  });

  it('resolves no dot segment and drops no empty segment (the path served is the path sent)', () => {
    for (const path of [
      '/api/v1/namespaces/default/configmaps/x/..',
      '/api/v1/../../api/v1/secrets',
      '/api/v1/./pods',
      '/api/v1/namespaces/x//configmaps',
      '//api/v1/pods',
      '/healthz/../api/v1/secrets',
    ]) {
      assert.equal(parseRequestUrl(path).pathname, path);
    }
  });

  it('percent-decodes the path before anything splits it, so %2e%2e is a ".." name and %2F a separator', () => {
    assert.equal(parseRequestUrl('/api/v1/namespaces/%2e%2e/secrets').pathname, '/api/v1/namespaces/../secrets');
    assert.equal(parseRequestUrl('/api/v1/namespaces/default/configmaps/a%2Fb').pathname, '/api/v1/namespaces/default/configmaps/a/b');
    assert.equal(parseRequestUrl('/a/%C3%A9%ff').pathname, '/a/é\ufffd');
  });

  it('answers a malformed path escape with a 400 Status', () => {
    assert.throws(
      () => parseRequestUrl('/api/v1/namespaces/default/configmaps/a%zz'),
      (err: unknown) => err instanceof StatusError && err.code === 400 && err.message.includes('invalid URL escape "%zz"'),
    );
  });

  it('takes a "#" as part of the path and query, as Go does with a request target', () => {
    assert.deepEqual(split('/api/v1/pods#x?a=1#b'), { pathname: '/api/v1/pods#x', params: [['a', '1#b']] });
  });

  it('splits the query at the first "?" and keeps a leading "?" in the first key', () => {
    assert.deepEqual(split('/api/v1/pods??x=1'), { pathname: '/api/v1/pods', params: [['?x', '1']] });
  });

  it('drops pairs with a ";" or a malformed escape and decodes "+" as a space', () => {
    assert.deepEqual(split('/p?a=%zz&b=1;c=2&d=%41+b&e&=f&&g=%2B'), {
      pathname: '/p',
      params: [
        ['d', 'A b'],
        ['e', ''],
        ['', 'f'],
        ['g', '+'],
      ],
    });
  });

  it('reads only the path and query of an absolute-form target', () => {
    assert.deepEqual(split('http://example.com:6443/api/v1/pods/../x?y=1'), { pathname: '/api/v1/pods/../x', params: [['y', '1']] });
  });
});
