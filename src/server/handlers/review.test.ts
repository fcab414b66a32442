import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { toStatusError } from '../../api/errors.js';
import type { AuthorizationAttributes, Authorizer, Decision, DecisionKind, RulesInfo } from '../../auth/authorizer.js';
import type { UserInfo } from '../../api/user.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { Registry } from '../../registry/registry.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import type { ApiContext, ResourceRequest } from '../api-context.js';
import { negotiate } from '../negotiation.js';
import { Query } from '../query.js';
import { sendStatusError } from '../respond.js';
import { handleReview } from './review.js';
import { createPublicKey } from 'node:crypto';
import { createTokenIssuer } from '../../auth/serviceaccount/token-issuer.js';
import { generateServiceAccountKey } from '../../pki/service-account-key.js';
import { API_AUDIENCES } from './reviews/authentication-review.js';

/** One permission (or explicit denial) of a user or group: verb on a resource or a non-resource path. */
interface Grant {
  readonly subject: string;
  readonly verb: string;
  readonly resource?: string;
  readonly path?: string;
  /** Undefined: every namespace. */
  readonly namespace?: string;
  readonly effect?: DecisionKind;
}

/** An authorizer over an explicit list of grants; it records what it was asked. */
class GrantAuthorizer implements Authorizer {
  readonly grants: readonly Grant[];
  readonly asked: AuthorizationAttributes[] = [];

  constructor(grants: readonly Grant[]) {
    this.grants = grants;
  }

  private applies(grant: Grant, user: UserInfo): boolean {
    return grant.subject === user.name || user.groups.includes(grant.subject);
  }

  authorize(a: AuthorizationAttributes): Decision {
    this.asked.push(a);
    for (const grant of this.grants) {
      if (!this.applies(grant, a.user) || grant.verb !== a.verb) continue;
      const matches = a.resourceRequest
        ? grant.resource === a.resource && (grant.namespace === undefined || grant.namespace === a.namespace)
        : grant.path === a.path;
      if (matches) return { decision: grant.effect ?? 'allow', reason: `${grant.effect ?? 'allow'} ${grant.verb} for ${grant.subject}` };
    }
    return { decision: 'noOpinion', reason: '' };
  }

  rulesFor(user: UserInfo, namespace: string): RulesInfo {
    const mine = this.grants.filter((g) => this.applies(g, user) && (g.effect ?? 'allow') === 'allow');
    return {
      resourceRules: mine
        .filter((g) => g.resource !== undefined && (g.namespace === undefined || g.namespace === namespace))
        .map((g) => ({ verbs: [g.verb], apiGroups: [''], resources: [g.resource ?? ''], resourceNames: [] })),
      nonResourceRules: mine.filter((g) => g.path !== undefined).map((g) => ({ verbs: [g.verb], nonResourceURLs: [g.path ?? ''] })),
      incomplete: false,
    };
  }
}

const ALICE: UserInfo = { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
const SIGNING_KEY = generateServiceAccountKey();
const TOKENS: Readonly<Record<string, UserInfo>> = { 'bob-token': { name: 'bob', groups: ['system:authenticated'] } };
const NOW = new Date('2025-01-02T03:04:05.678Z');

const GRANTS: readonly Grant[] = [
  { subject: 'alice', verb: 'get', resource: 'pods' },
  { subject: 'devs', verb: 'list', resource: 'secrets', namespace: 'dev' },
  { subject: 'alice', verb: 'delete', resource: 'nodes', effect: 'deny' },
  { subject: 'alice', verb: 'get', path: '/logs' },
  { subject: 'carol', verb: 'create', resource: 'deployments' },
];

const ROUTES: Readonly<Record<string, { group: string; plural: string; namespaced?: boolean }>> = {
  '/apis/authorization.k8s.io/v1/subjectaccessreviews': { group: 'authorization.k8s.io', plural: 'subjectaccessreviews' },
  '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews': { group: 'authorization.k8s.io', plural: 'selfsubjectaccessreviews' },
  '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews': { group: 'authorization.k8s.io', plural: 'selfsubjectrulesreviews' },
  '/apis/authentication.k8s.io/v1/selfsubjectreviews': { group: 'authentication.k8s.io', plural: 'selfsubjectreviews' },
  '/apis/authentication.k8s.io/v1/tokenreviews': { group: 'authentication.k8s.io', plural: 'tokenreviews' },
};

const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const TR = '/apis/authentication.k8s.io/v1/tokenreviews';
const lsar = (ns: string): string => `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`;

interface Reply {
  status: number;
  body: any;
}

describe('handleReview', () => {
  const backend = createMemoryBackend();
  const registry = new Registry({ backend, resources: BUILTIN_RESOURCES });
  let authorizer = new GrantAuthorizer(GRANTS);
  const ctx = (): ApiContext => ({
    registry,
    definitions: BUILTIN_DEFINITIONS,
    clock: () => NOW,
    bookmarkIntervalMs: 1000,
    minRequestTimeoutSeconds: 1800,
    shutdown: new AbortController().signal,
    authorizer,
    // As the server's: the static tokens count as issued for the API server's own audience.
    authenticateToken: async (token, audiences) => {
      const user = TOKENS[token];
      return user === undefined || !audiences.includes(API_AUDIENCES[0] ?? '') ? undefined : { user, audiences: [...API_AUDIENCES] };
    },
    serviceAccountTokens: createTokenIssuer(SIGNING_KEY, createPublicKey(SIGNING_KEY)),
    aggregator: undefined,
  });
  let server: Server;
  let base = '';

  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const local = /^\/apis\/authorization\.k8s\.io\/v1\/namespaces\/([^/]+)\/localsubjectaccessreviews$/.exec(url.pathname);
      const route = local !== null ? { group: 'authorization.k8s.io', plural: 'localsubjectaccessreviews' } : ROUTES[url.pathname];
      const store = route === undefined ? undefined : registry.lookup(route.group, 'v1', route.plural);
      assert.ok(store !== undefined, url.pathname);
      const r: ResourceRequest = {
        ctx: ctx(),
        req,
        res,
        store,
        namespace: local?.[1],
        name: undefined,
        subresource: undefined,
        query: new Query(url.searchParams),
        format: negotiate(req.headers.accept),
        user: ALICE,
      };
      handleReview(r).catch((err: unknown) => sendStatusError(res, toStatusError(err)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await backend.close();
  });
  beforeEach(() => {
    authorizer = new GrantAuthorizer(GRANTS);
  });

  async function post(path: string, body: unknown, contentType = 'application/json'): Promise<Reply> {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      // A copy, typed over a plain ArrayBuffer as fetch wants it.
      body: body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  const ssar = (spec: unknown): unknown => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec });
  const sar = (spec: unknown, metadata?: unknown): unknown => ({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    ...(metadata === undefined ? {} : { metadata }),
    spec,
  });

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
