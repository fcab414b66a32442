import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sar, serveReviews, SSAR, SSR, SSRR, TR } from './review-test-helpers.js';

// Rules and identity reviews: SelfSubjectRulesReview, SelfSubjectReview and TokenReview, and a body of the wrong kind.

describe('handleReview', () => {
  const { post } = serveReviews();

  describe('SelfSubjectRulesReview', () => {
    it("lists the requester's rules in spec.namespace and answers a new object without the spec", async () => {
      const reply = await post(SSRR, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'dev' } });
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body, {
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: {},
        status: {
          resourceRules: [
            { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
            { verbs: ['list'], apiGroups: [''], resources: ['secrets'] },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/logs'] }],
          incomplete: false,
        },
      });
      const elsewhere = await post(SSRR, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'prod' },
      });
      assert.deepEqual(elsewhere.body.status.resourceRules, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    });

    it('needs a namespace', async () => {
      const reply = await post(SSRR, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.message, 'no namespace on request');
    });

    it('decodes the protobuf body of kubectl auth can-i --list', async () => {
      const body = Buffer.from(
        'azhzAAoxChdhdXRob3JpemF0aW9uLms4cy5pby92MRIWU2VsZlN1YmplY3RSdWxlc1JldmlldxIjChAKABIAGgAiACoAMgA4AEIAEgkKB2RlZmF1bHQaBBgAIgAaACIA',
        'base64',
      );
      const reply = await post(SSRR, new Uint8Array(body), 'application/vnd.kubernetes.protobuf');
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body.status.resourceRules, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    });
  });

  describe('SelfSubjectReview', () => {
    it('names the requester, stamped with the time of the request (kubectl auth whoami, protobuf)', async () => {
      const body = Buffer.from(
        'azhzAAotChhhdXRoZW50aWNhdGlvbi5rOHMuaW8vdjESEVNlbGZTdWJqZWN0UmV2aWV3EhoKEAoAEgAaACIAKgAyADgAQgASBgoECgASABoAIgA=',
        'base64',
      );
      const reply = await post(SSR, new Uint8Array(body), 'application/vnd.kubernetes.protobuf');
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body, {
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: '2025-01-02T03:04:05Z' },
        status: { userInfo: { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } } },
      });
    });
  });

  describe('TokenReview', () => {
    const review = (spec: unknown): unknown => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec });

    it('authenticates a known token and reports the audiences it was checked for', async () => {
      const reply = await post(TR, review({ token: 'bob-token' }));
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body, {
        kind: 'TokenReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: { token: 'bob-token' },
        status: {
          authenticated: true,
          user: { username: 'bob', groups: ['system:authenticated'] },
          audiences: ['https://kubernetes.default.svc.cluster.local'],
        },
      });
    });

    it('leaves unknown tokens and foreign audiences unauthenticated', async () => {
      const unknown = await post(TR, review({ token: 'nope' }));
      assert.equal(unknown.status, 201);
      assert.deepEqual(unknown.body.status, { user: {} });
      const foreign = await post(TR, review({ token: 'bob-token', audiences: ['vault'] }));
      assert.deepEqual(foreign.body.status, { user: {} });
      assert.deepEqual(foreign.body.spec, { token: 'bob-token', audiences: ['vault'] });
    });

    it('needs a token', async () => {
      const reply = await post(TR, review({}));
      assert.equal(reply.status, 400);
      assert.equal(reply.body.message, 'token is required for TokenReview in authentication');
    });
  });

  it('rejects a body of another kind as every create does', async () => {
    const reply = await post(SSAR, sar({ user: 'x' }));
    assert.equal(reply.status, 400);
    assert.match(reply.body.message, /SubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview/);
  });
});
