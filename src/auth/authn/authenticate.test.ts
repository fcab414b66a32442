import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { badRequest } from '../../api/errors.js';
import type { Authenticator } from '../authenticator.js';
import type { UserInfo } from '../../api/user.js';
import { anonymousAllowedPath, createRequestAuthenticator, unauthorized } from './authenticate.js';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { probe } from './testing-http.js';

const tokens = new Map<string, UserInfo>([
  ['alice-token', { name: 'alice', groups: ['dev'] }],
  ['authed-token', { name: 'svc', groups: ['system:authenticated', 'x'] }],
  ['unauth-token', { name: 'odd', groups: ['system:unauthenticated'] }],
  ['anon-token', { name: 'system:anonymous', groups: [] }],
]);
const bearer = bearerTokenAuthenticator(tokens);

/** Recognises `X-Test-User: <name>`: a second, independent kind of credential. */
const headerUser: Authenticator = (req: IncomingMessage) => {
  const name = req.headers['x-test-user'];
  return typeof name === 'string' ? { name, groups: [] } : undefined;
};

describe('unauthorized', () => {
  it("renders kube-apiserver's 401 body exactly", () => {
    assert.equal(
      JSON.stringify(unauthorized().toStatus()),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}',
    );
  });
});

describe('createRequestAuthenticator', () => {
  const withAnonymous = createRequestAuthenticator({ authenticators: [bearer, headerUser], anonymous: true });
  const withoutAnonymous = createRequestAuthenticator({ authenticators: [bearer, headerUser], anonymous: false });

  it('adds system:authenticated to an authenticated user', async () => {
    const outcome = await probe(withAnonymous, { authorization: 'Bearer alice-token' });
    assert.deepEqual(outcome.body, { result: { name: 'alice', groups: ['dev', 'system:authenticated'] } });
  });

  it('leaves users that already say authenticated or unauthenticated, and system:anonymous, alone', async () => {
    for (const [token, expected] of [
      ['authed-token', { name: 'svc', groups: ['system:authenticated', 'x'] }],
      ['unauth-token', { name: 'odd', groups: ['system:unauthenticated'] }],
      ['anon-token', { name: 'system:anonymous', groups: [] }],
    ] as const) {
      assert.deepEqual((await probe(withAnonymous, { authorization: `Bearer ${token}` })).body, { result: expected }, token);
    }
  });

  it('makes a request without credentials system:anonymous when anonymous auth is on', async () => {
    const outcome = await probe(withAnonymous, {});
    assert.deepEqual(outcome.body, { result: { name: 'system:anonymous', groups: ['system:unauthenticated'] } });
  });

  it('returns undefined for a request without credentials when anonymous auth is off', async () => {
    assert.deepEqual((await probe(withoutAnonymous, {})).body, { result: null });
  });

  it('refuses a bad credential even with anonymous auth on', async () => {
    const outcome = await probe(withAnonymous, { authorization: 'Bearer nope' });
    assert.equal(outcome.status, 401);
  });

  it('lets a later authenticator succeed after an earlier one rejected its credential', async () => {
    const outcome = await probe(withoutAnonymous, { authorization: 'Bearer nope', 'x-test-user': 'bob' });
    assert.deepEqual(outcome.body, { result: { name: 'bob', groups: ['system:authenticated'] } });
  });

  it('uses the first authenticator that recognises the request', async () => {
    const outcome = await probe(withoutAnonymous, { authorization: 'Bearer alice-token', 'x-test-user': 'bob' });
    assert.equal((outcome.body as { result: UserInfo }).result.name, 'alice');
  });

  it('lets errors other than 401 through (a bug must not read as a bad credential)', async () => {
    const broken: Authenticator = () => {
      throw badRequest('boom');
    };
    const authenticate = createRequestAuthenticator({ authenticators: [broken, headerUser], anonymous: true });
    const outcome = await probe(authenticate, { 'x-test-user': 'bob' });
    assert.equal(outcome.status, 400);
  });
});

describe('anonymousAllowedPath', () => {
  it('allows the health endpoints, their checks, and /version', () => {
    for (const path of ['/livez', '/readyz', '/healthz', '/livez/ping', '/readyz/etcd', '/healthz/poststarthook/x', '/version']) {
      assert.equal(anonymousAllowedPath(path), true, path);
    }
  });

  it('refuses everything else', () => {
    for (const path of ['/', '/api', '/apis', '/version/x', '/livezz', '/healthzfoo', '/api/v1/namespaces', '/openapi/v2', '/metrics']) {
      assert.equal(anonymousAllowedPath(path), false, path);
    }
  });
});
