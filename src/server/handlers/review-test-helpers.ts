import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach } from 'node:test';
import { toStatusError } from '../../api/errors.js';
import type { AuthorizationAttributes, Authorizer, Decision, DecisionKind, RulesInfo } from '../../auth/authorizer.js';
import type { UserInfo } from '../../api/user.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { BUILTIN_RESOURCES } from '../../kinds/index.js';
import { Registry } from '../../registry/registry.js';
import type { Backend } from '../../storage/backend.js';
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

// The harness of the review handler's tests (review*.test.ts): handleReview served on a loopback port, an authorizer
// over explicit grants, and the reviews' paths and bodies.
/** One permission (or explicit denial) of a user or group: verb on a resource or a non-resource path. */
export interface Grant {
  readonly subject: string;
  readonly verb: string;
  readonly resource?: string;
  readonly path?: string;
  /** Undefined: every namespace. */
  readonly namespace?: string;
  readonly effect?: DecisionKind;
}

/** An authorizer over an explicit list of grants; it records what it was asked. */
export class GrantAuthorizer implements Authorizer {
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

export const ALICE: UserInfo = { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
const SIGNING_KEY = generateServiceAccountKey();
export const TOKENS: Readonly<Record<string, UserInfo>> = { 'bob-token': { name: 'bob', groups: ['system:authenticated'] } };
export const NOW = new Date('2025-01-02T03:04:05.678Z');

export const GRANTS: readonly Grant[] = [
  { subject: 'alice', verb: 'get', resource: 'pods' },
  { subject: 'devs', verb: 'list', resource: 'secrets', namespace: 'dev' },
  { subject: 'alice', verb: 'delete', resource: 'nodes', effect: 'deny' },
  { subject: 'alice', verb: 'get', path: '/logs' },
  { subject: 'carol', verb: 'create', resource: 'deployments' },
];

export const ROUTES: Readonly<Record<string, { group: string; plural: string; namespaced?: boolean }>> = {
  '/apis/authorization.k8s.io/v1/subjectaccessreviews': { group: 'authorization.k8s.io', plural: 'subjectaccessreviews' },
  '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews': { group: 'authorization.k8s.io', plural: 'selfsubjectaccessreviews' },
  '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews': { group: 'authorization.k8s.io', plural: 'selfsubjectrulesreviews' },
  '/apis/authentication.k8s.io/v1/selfsubjectreviews': { group: 'authentication.k8s.io', plural: 'selfsubjectreviews' },
  '/apis/authentication.k8s.io/v1/tokenreviews': { group: 'authentication.k8s.io', plural: 'tokenreviews' },
};

export const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
export const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
export const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
export const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
export const TR = '/apis/authentication.k8s.io/v1/tokenreviews';
export const lsar = (ns: string): string => `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`;

export interface Reply {
  status: number;
  body: any;
}

export const ssar = (spec: unknown): unknown => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec });
export const sar = (spec: unknown, metadata?: unknown): unknown => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SubjectAccessReview',
  ...(metadata === undefined ? {} : { metadata }),
  spec,
});

export interface ReviewServer {
  /** Asked by every review; what it was asked is cleared before each test. */
  readonly authorizer: GrantAuthorizer;
  readonly backend: Backend;
  post(path: string, body: unknown, contentType?: string): Promise<Reply>;
}

/** Serves handleReview, acting as ALICE, for the enclosing describe: call it at the top of the describe. */
export function serveReviews(): ReviewServer {
  const backend = createMemoryBackend();
  const registry = new Registry({ backend, resources: BUILTIN_RESOURCES });
  const authorizer = new GrantAuthorizer(GRANTS);
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
    authorizer.asked.length = 0;
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
  return { authorizer, backend, post };
}
