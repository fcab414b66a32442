import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { bearerToken } from './ui-sessions.js';

const withAuthorization = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('the token a web UI request carries', () => {
  it('is the bearer token of the Authorization header, and nothing for anything else', () => {
    assert.equal(bearerToken(withAuthorization('Bearer abc.def')), 'abc.def');
    assert.equal(bearerToken(withAuthorization('bearer  abc')), 'abc');
    assert.equal(bearerToken(withAuthorization()), '');
    assert.equal(bearerToken(withAuthorization('Basic dXNlcjpwYXNz')), '');
    assert.equal(bearerToken(withAuthorization('Bearer a b')), '');
  });
});
