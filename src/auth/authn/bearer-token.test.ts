import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../api/user.js';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { probe } from './testing-http.js';

const alice: UserInfo = { name: 'alice', uid: 'u-1', groups: ['dev'] };
const authenticate = bearerTokenAuthenticator(new Map([['s3cret', alice]]));

const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

describe('bearerTokenAuthenticator', () => {
  it('maps a known token to its user', async () => {
    assert.deepEqual(await probe(authenticate, { authorization: 'Bearer s3cret' }), { status: 200, body: { result: alice } });
  });

  it('takes the scheme case-insensitively and ignores surrounding space and trailing words', async () => {
    for (const header of ['bearer s3cret', 'BEARER s3cret', '  Bearer s3cret  ', 'Bearer s3cret trailing']) {
      assert.deepEqual(await probe(authenticate, { authorization: header }), { status: 200, body: { result: alice } }, header);
    }
  });

  it('refuses an unknown token with the bare 401 Status', async () => {
    assert.deepEqual(await probe(authenticate, { authorization: 'Bearer wrong' }), { status: 401, body: UNAUTHORIZED });
  });

  it('treats no header, another scheme, a missing or empty token as no credential', async () => {
    for (const headers of [
      {},
      { authorization: 'Basic YTpi' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer  s3cret' },
      { authorization: '   ' },
    ]) {
      assert.deepEqual(await probe(authenticate, headers), { status: 200, body: { result: null } }, JSON.stringify(headers));
    }
  });
});
