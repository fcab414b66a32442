import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALICE, lsar, SAR, sar, serveReviews, SSAR, ssar } from './review-test-helpers.js';

// Access reviews: SelfSubjectAccessReview, SubjectAccessReview and LocalSubjectAccessReview.

describe('handleReview', () => {
  const { authorizer, backend, post } = serveReviews();

  describe('SelfSubjectAccessReview', () => {
    it('asks as the requester and answers 201 with the object echoed in Go field order', async () => {
      const reply = await post(SSAR, ssar({ resourceAttributes: { resource: 'pods', verb: 'get', namespace: 'default', group: '' } }));
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body, {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
        status: { allowed: true, reason: 'allow get for alice' },
      });
      assert.deepEqual(Object.keys(reply.body.spec.resourceAttributes), ['namespace', 'verb', 'resource']);
      const asked = authorizer.asked[0];
      assert.ok(asked?.resourceRequest);
      assert.equal(asked.user, ALICE);
      // An empty version asks about every version.
      assert.equal(asked.apiVersion, '*');
      assert.equal(asked.apiGroup, '');
      assert.equal(asked.namespace, 'default');
    });

    it('answers allowed=false without denied or reason when no authorizer has an opinion', async () => {
      const reply = await post(SSAR, ssar({ resourceAttributes: { verb: 'delete', resource: 'pods' } }));
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body.status, { allowed: false });
    });

    it('reports denied=true only on an explicit deny', async () => {
      const reply = await post(SSAR, ssar({ resourceAttributes: { verb: 'delete', resource: 'nodes' } }));
      assert.deepEqual(reply.body.status, { allowed: false, denied: true, reason: 'deny delete for alice' });
    });

    it('checks non-resource paths', async () => {
      const reply = await post(SSAR, ssar({ nonResourceAttributes: { verb: 'get', path: '/logs' } }));
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body.spec, { nonResourceAttributes: { path: '/logs', verb: 'get' } });
      assert.equal(reply.body.status.allowed, true);
      assert.deepEqual(authorizer.asked[0], { user: ALICE, resourceRequest: false, verb: 'get', path: '/logs' });
    });

    it('decodes the protobuf body kubectl auth can-i sends', async () => {
      // `kubectl auth can-i get pods` (v1.32) against namespace default, as captured on the wire.
      const body = Buffer.from(
        'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSPAoQCgASABoAIgAqADIAOABCABIeChwKB2RlZmF1bHQSA2dldBoAIgAqBHBvZHMyADoAGggIABIAGgAgABoAIgA=',
        'base64',
      );
      const reply = await post(SSAR, new Uint8Array(body), 'application/vnd.kubernetes.protobuf');
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body.spec, { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } });
      assert.deepEqual(reply.body.metadata, { creationTimestamp: null });
      assert.deepEqual(reply.body.status, { allowed: true, reason: 'allow get for alice' });
    });

    it('rejects neither or both attribute kinds with the validation messages of kube-apiserver', async () => {
      const neither = await post(SSAR, ssar({}));
      assert.equal(neither.status, 422);
      assert.equal(
        neither.body.message,
        '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      );
      assert.deepEqual(neither.body.details, {
        group: 'authorization.k8s.io',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
            field: 'spec.resourceAttributes',
          },
        ],
      });
      const both = await post(SSAR, ssar({ resourceAttributes: { verb: 'get' }, nonResourceAttributes: { verb: 'get', path: '/x' } }));
      assert.equal(both.status, 422);
      assert.equal(
        both.body.message,
        '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      );
      assert.equal(authorizer.asked.length, 0);
    });

    it('reports selector parts it could not use in evaluationError, and rejects raw selectors sent with requirements', async () => {
      const reply = await post(
        SSAR,
        ssar({
          resourceAttributes: {
            verb: 'get',
            resource: 'pods',
            labelSelector: { rawSelector: 'a in (' },
            fieldSelector: { rawSelector: 'spec.nodeName=n1' },
          },
        }),
      );
      assert.equal(reply.status, 201);
      assert.equal(reply.body.status.evaluationError, 'spec.resourceAttributes.labelSelector ignored due to parse error');
      assert.deepEqual(reply.body.spec.resourceAttributes.fieldSelector, { rawSelector: 'spec.nodeName=n1' });

      const partial = await post(
        SSAR,
        ssar({
          resourceAttributes: {
            verb: 'get',
            resource: 'pods',
            fieldSelector: {
              requirements: [
                { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
                { key: 'x', operator: 'Exists' },
              ],
            },
          },
        }),
      );
      assert.equal(partial.body.status.evaluationError, 'spec.resourceAttributes.fieldSelector partially ignored due to parse error');
      assert.deepEqual(partial.body.spec.resourceAttributes.fieldSelector.requirements[1], { key: 'x', operator: 'Exists' });

      const both = await post(
        SSAR,
        ssar({ resourceAttributes: { verb: 'get', labelSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In' }] } } }),
      );
      assert.equal(both.status, 422);
      assert.equal(
        both.body.message,
        '.authorization.k8s.io "" is invalid: [spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements, ' +
          "spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']",
      );
      const empty = await post(SSAR, ssar({ resourceAttributes: { verb: 'get', fieldSelector: {} } }));
      assert.equal(
        empty.body.message,
        '.authorization.k8s.io "" is invalid: spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
      );
    });

    it('accepts dryRun=All and stores nothing', async () => {
      const before = await backend.currentRevision();
      const reply = await post(`${SSAR}?dryRun=All`, ssar({ resourceAttributes: { verb: 'get', resource: 'pods' } }));
      assert.equal(reply.status, 201);
      assert.equal(await backend.currentRevision(), before);
      const bad = await post(`${SSAR}?dryRun=Some`, ssar({ resourceAttributes: { verb: 'get', resource: 'pods' } }));
      assert.equal(bad.status, 400);
      assert.equal(bad.body.message, 'Invalid dry run value: ["Some"]; supported values: "All"');
    });
  });

  describe('SubjectAccessReview', () => {
    it("asks as the spec's user, groups, uid and extra, not as the requester", async () => {
      const spec = {
        resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'dev' },
        user: 'dave',
        groups: ['devs'],
        uid: '7',
        extra: { k: ['v'] },
      };
      const reply = await post(SAR, sar(spec));
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body.status, { allowed: true, reason: 'allow list for devs' });
      assert.deepEqual(reply.body.spec, {
        resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'secrets' },
        user: 'dave',
        groups: ['devs'],
        extra: { k: ['v'] },
        uid: '7',
      });
      assert.deepEqual(authorizer.asked[0]?.user, { name: 'dave', groups: ['devs'], uid: '7', extra: { k: ['v'] } });
      const otherNamespace = await post(
        SAR,
        sar({ ...spec, resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'prod' } }),
      );
      assert.deepEqual(otherNamespace.body.status, { allowed: false });
    });

    it('requires a subject and one kind of attributes, reporting every problem at once', async () => {
      const reply = await post(SAR, sar({}));
      assert.equal(reply.status, 422);
      assert.equal(reply.body.reason, 'Invalid');
      assert.equal(
        reply.body.message,
        '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, ' +
          'spec.user: Invalid value: "": at least one of user or group must be specified]',
      );
      assert.deepEqual(
        reply.body.details.causes.map((c: { field: string }) => c.field),
        ['spec.resourceAttributes', 'spec.user'],
      );
      const groupsOnly = await post(
        SAR,
        sar({ groups: ['devs'], resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'dev' } }),
      );
      assert.equal(groupsOnly.status, 201);
      assert.equal(groupsOnly.body.status.allowed, true);
    });

    it('requires empty metadata', async () => {
      const reply = await post(
        SAR,
        sar({ user: 'carol', resourceAttributes: { verb: 'create', resource: 'deployments' } }, { name: 'x', labels: { a: 'b' } }),
      );
      assert.equal(reply.status, 422);
      assert.equal(
        reply.body.message,
        '.authorization.k8s.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, ' +
          'CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), ' +
          'Labels:map[string]string{"a":"b"}, Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ' +
          'ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty',
      );
      const emptyCollections = await post(
        SAR,
        sar({ user: 'carol', resourceAttributes: { verb: 'create', resource: 'deployments' } }, { labels: {}, finalizers: [] }),
      );
      assert.equal(emptyCollections.status, 201);
      assert.deepEqual(emptyCollections.body.metadata, { creationTimestamp: null });
    });
  });

  describe('LocalSubjectAccessReview', () => {
    const local = (spec: unknown, metadata?: unknown): unknown => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      ...(metadata === undefined ? {} : { metadata }),
      spec,
    });

    it('answers in the namespace of the path and keeps it in metadata', async () => {
      const reply = await post(
        lsar('dev'),
        local({ user: 'dave', groups: ['devs'], resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'secrets' } }),
      );
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body.metadata, { namespace: 'dev', creationTimestamp: null });
      assert.equal(reply.body.status.allowed, true);
    });

    it('requires spec.resourceAttributes.namespace to be the namespace of the request (422) and the body namespace to match the path (400)', async () => {
      const mismatch = await post(
        lsar('dev'),
        local({ user: 'dave', resourceAttributes: { namespace: 'prod', verb: 'list', resource: 'secrets' } }),
      );
      assert.equal(mismatch.status, 422);
      assert.equal(
        mismatch.body.message,
        '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "prod": must match metadata.namespace',
      );
      const unset = await post(lsar('dev'), local({ user: 'dave', resourceAttributes: { verb: 'list', resource: 'secrets' } }));
      assert.equal(unset.status, 422);
      assert.match(unset.body.message, /spec\.resourceAttributes\.namespace: Invalid value: "": must match metadata\.namespace$/);
      const body = await post(
        lsar('dev'),
        local({ user: 'dave', resourceAttributes: { namespace: 'dev', verb: 'list' } }, { namespace: 'prod' }),
      );
      assert.equal(body.status, 400);
      assert.equal(body.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
    });

    it('refuses non-resource attributes and any metadata besides the namespace', async () => {
      const reply = await post(lsar('dev'), local({ user: 'dave', nonResourceAttributes: { verb: 'get', path: '/logs' } }, { name: 'n' }));
      assert.equal(reply.status, 422);
      assert.deepEqual(
        reply.body.details.causes.map((c: { field: string; message: string }) => [
          c.field,
          c.message.replace(/v1\.ObjectMeta\{.*\}/, 'META'),
        ]),
        [
          ['metadata', 'Invalid value: META: must be empty except for namespace'],
          [
            'spec.nonResourceAttributes',
            'Invalid value: authorization.NonResourceAttributes{Path:"/logs", Verb:"get"}: disallowed on this kind of request',
          ],
        ],
      );
      assert.match(reply.body.details.causes[0].message, /Name:"n", GenerateName:"", Namespace:"dev",/);
    });
  });
});
