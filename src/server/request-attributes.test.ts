import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../api/user.js';
import { parseRequestPath } from './request-info.js';
import { fieldSelectorName, requestAttributes, requestVerb } from './request-attributes.js';
import { parseRequestUrl } from '../api/request-url.js';

const ALICE: UserInfo = { name: 'alice', groups: [] };

function attributes(method: string, target: string): { verb: string; name?: string } {
  const url = parseRequestUrl(target);
  const path = parseRequestPath(url.pathname);
  const verb = requestVerb(method, url, path);
  const attrs = requestAttributes(verb, url, path, ALICE);
  return { verb: attrs.verb, name: attrs.resourceRequest ? attrs.name : undefined };
}

describe('fieldSelectorName (RequestInfoFactory names a list or watch by its metadata.name selector)', () => {
  it('takes the first metadata.name "=" or "==" term, whatever else the selector requires', () => {
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=x')), 'x');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name==x')), 'x');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.namespace=y,metadata.name=x')), 'x');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=b,metadata.name=a')), 'a');
  });

  it('names nothing for "!=", other fields, undecodable options or a name that is no path segment', () => {
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name!=x')), '');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=spec.nodeName=x')), '');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=x&limit=ten')), '');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=x&labelSelector=a%20b')), '');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=x,bad')), '');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=..')), '');
    assert.equal(fieldSelectorName(new URLSearchParams('fieldSelector=metadata.name=a%25b')), '');
  });
});

describe('requestAttributes', () => {
  it('authorizes a list or watch of a collection with the name its field selector requires', () => {
    const cms = '/api/v1/namespaces/ns/configmaps';
    assert.deepEqual(attributes('GET', `${cms}?watch=1&fieldSelector=metadata.name%3Dx`), { verb: 'watch', name: 'x' });
    assert.deepEqual(attributes('GET', `${cms}?fieldSelector=metadata.name%3Dx`), { verb: 'list', name: 'x' });
    // deletecollection keeps no name.
    assert.deepEqual(attributes('DELETE', `${cms}?fieldSelector=metadata.name%3Dx`), { verb: 'deletecollection', name: '' });
  });

  it('authorizes a deprecated /watch/ path as a watch of the name in its path, never of its selector', () => {
    assert.deepEqual(attributes('GET', '/api/v1/watch/namespaces/ns/configmaps/x'), { verb: 'watch', name: 'x' });
    assert.deepEqual(attributes('GET', '/api/v1/watch/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dx'), {
      verb: 'watch',
      name: '',
    });
    assert.deepEqual(attributes('POST', '/api/v1/watch/configmaps'), { verb: 'watch', name: '' });
    assert.deepEqual(attributes('GET', '/api/v1/proxy/namespaces/ns/pods/p'), { verb: 'proxy', name: 'p' });
  });
});
