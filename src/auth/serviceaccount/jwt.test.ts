import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateServiceAccountKey } from '../../pki/service-account-key.js';
import { audiencesOf, kubernetesClaim, timeClaimsError, tokenClaims, tokenUser } from './claims.js';
import { keyIdOf, parseJwt, signJwt, verifyJwt } from './jwt.js';

const key = generateServiceAccountKey();
const publicKey = createPublicKey(key);

describe('ES256 JWT', () => {
  it('signs a token that verifies with the public key and no other', () => {
    const token = signJwt({ sub: 'x', n: 1 }, key);
    const jwt = parseJwt(token);
    assert.ok(jwt !== undefined);
    assert.deepEqual(jwt.header, { alg: 'ES256', kid: keyIdOf(publicKey) });
    assert.deepEqual(jwt.payload, { sub: 'x', n: 1 });
    assert.equal(jwt.signature.length, 64, 'the raw r‖s form JWS requires');
    assert.equal(verifyJwt(jwt, [publicKey]), true);
    assert.equal(verifyJwt(jwt, [createPublicKey(generateServiceAccountKey())]), false);
  });

  it('rejects a changed payload, another algorithm and text that is no JWT', () => {
    const [h, , s] = signJwt({ sub: 'x' }, key).split('.');
    const forged = parseJwt(`${h}.${Buffer.from('{"sub":"admin"}').toString('base64url')}.${s}`);
    assert.ok(forged !== undefined);
    assert.equal(verifyJwt(forged, [publicKey]), false);
    const none = parseJwt(`${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`);
    assert.ok(none !== undefined);
    assert.equal(verifyJwt(none, [publicKey]), false);
    for (const text of ['abc', 'a.b', 'a.b.c.d', 'e30.e30.@@', `${Buffer.from('[]').toString('base64url')}.e30.`]) {
      assert.equal(parseJwt(text), undefined, text);
    }
  });

  it('derives the key id as Kubernetes does: unpadded base64url SHA-256 of the PKIX public key', () => {
    assert.match(keyIdOf(key), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(keyIdOf(key), keyIdOf(publicKey));
  });
});

describe('service account claims', () => {
  const now = new Date('2026-01-02T03:04:05.678Z');
  const t = Math.floor(now.getTime() / 1000);
  const base = {
    namespace: 'ns',
    serviceAccount: { name: 'sa', uid: 'sa-uid' },
    audiences: ['api'],
    expirationSeconds: 3600,
    warnAfterSeconds: 0,
    now,
    jti: 'j-1',
  };

  it('writes the registered and kubernetes.io claims in go-jose order', () => {
    const claims = tokenClaims({ ...base, bound: { pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n' } } });
    assert.deepEqual(claims, {
      aud: ['api'],
      exp: t + 3600,
      iat: t,
      iss: 'https://kubernetes.default.svc.cluster.local',
      jti: 'j-1',
      'kubernetes.io': {
        namespace: 'ns',
        node: { name: 'n' },
        pod: { name: 'p', uid: 'p-uid' },
        serviceaccount: { name: 'sa', uid: 'sa-uid' },
      },
      nbf: t,
      sub: 'system:serviceaccount:ns:sa',
    });
    assert.deepEqual(Object.keys(claims['kubernetes.io'] as object), ['namespace', 'node', 'pod', 'serviceaccount']);
    const extended = tokenClaims({ ...base, bound: {}, expirationSeconds: 31_536_000, warnAfterSeconds: 3607 });
    assert.equal((extended['kubernetes.io'] as { warnafter: number }).warnafter, t + 3607);
  });

  it('checks exp, nbf and iat with a minute of leeway', () => {
    const claims = tokenClaims({ ...base, bound: {} });
    assert.equal(timeClaimsError(claims, now), undefined);
    assert.equal(timeClaimsError(claims, new Date(now.getTime() + 3659_000)), undefined);
    assert.equal(timeClaimsError(claims, new Date(now.getTime() + 3662_000)), 'service account token has expired');
    assert.equal(timeClaimsError(claims, new Date(now.getTime() - 62_000)), 'service account token is not valid yet');
    assert.equal(timeClaimsError({ iat: t + 120 }, now), 'service account token is issued in the future');
  });

  it('reads the claims back into the user Kubernetes reports', () => {
    const claims = tokenClaims({ ...base, bound: { pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } } });
    const claim = kubernetesClaim(claims);
    assert.ok(claim !== undefined);
    assert.deepEqual(tokenUser(claim, claims.jti), {
      name: 'system:serviceaccount:ns:sa',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
      extra: {
        'authentication.kubernetes.io/pod-name': ['p'],
        'authentication.kubernetes.io/pod-uid': ['p-uid'],
        'authentication.kubernetes.io/node-name': ['n'],
        'authentication.kubernetes.io/node-uid': ['n-uid'],
        'authentication.kubernetes.io/credential-id': ['JTI=j-1'],
      },
    });
    assert.equal(kubernetesClaim({ 'kubernetes.io': { namespace: 'ns' } }), undefined, 'no service account');
    assert.deepEqual(audiencesOf({ aud: 'one' }), ['one']);
    assert.deepEqual(audiencesOf({ aud: ['a', 1, 'b'] }), ['a', 'b']);
  });
});
