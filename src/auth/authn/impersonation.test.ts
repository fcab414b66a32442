import assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import type { AuthorizationAttributes, Authorizer, Decision, RulesInfo } from '../authorizer.js';
import type { UserInfo } from '../../api/user.js';
import { impersonate } from './impersonation.js';
import { probe } from './testing-http.js';

/** One thing a user may impersonate, in authorizer terms. */
interface Grant {
  readonly user: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name: string;
}

/** Allows exactly the listed impersonate grants, denies the listed refusals with a reason, has no opinion otherwise. */
class GrantListAuthorizer implements Authorizer {
  readonly grants: readonly Grant[];
  readonly refusals: readonly Grant[];
  readonly asked: AuthorizationAttributes[] = [];

  constructor(grants: readonly Grant[], refusals: readonly Grant[] = []) {
    this.grants = grants;
    this.refusals = refusals;
  }

  private matches(grant: Grant, a: AuthorizationAttributes): boolean {
    return (
      a.resourceRequest &&
      a.verb === 'impersonate' &&
      grant.user === a.user.name &&
      grant.apiGroup === a.apiGroup &&
      grant.resource === a.resource &&
      (grant.subresource ?? '') === a.subresource &&
      (grant.namespace ?? '') === a.namespace &&
      grant.name === a.name
    );
  }

  authorize(attributes: AuthorizationAttributes): Decision {
    this.asked.push(attributes);
    if (this.refusals.some((g) => this.matches(g, attributes)))
      return { decision: 'deny', reason: 'impersonation of this identity is switched off' };
    if (this.grants.some((g) => this.matches(g, attributes))) return { decision: 'allow', reason: 'listed' };
    return { decision: 'noOpinion', reason: '' };
  }

  rulesFor(user: UserInfo, namespace: string): RulesInfo {
    const mine = this.grants.filter((g) => g.user === user.name && (g.namespace ?? '') === namespace);
    return {
      resourceRules: mine.map((g) => ({
        verbs: ['impersonate'],
        apiGroups: [g.apiGroup],
        resources: [g.subresource === undefined ? g.resource : `${g.resource}/${g.subresource}`],
        resourceNames: [g.name],
      })),
      nonResourceRules: [],
      incomplete: false,
    };
  }
}

const bob: UserInfo = { name: 'bob', groups: ['impersonators', 'system:authenticated'] };

const grants: Grant[] = [
  { user: 'bob', apiGroup: '', resource: 'users', name: 'alice' },
  { user: 'bob', apiGroup: '', resource: 'users', name: 'system:anonymous' },
  { user: 'bob', apiGroup: '', resource: 'users', name: 'system:serviceaccount:Bad:x' },
  { user: 'bob', apiGroup: '', resource: 'serviceaccounts', namespace: 'kube-system', name: 'default' },
  { user: 'bob', apiGroup: '', resource: 'groups', name: 'g1' },
  { user: 'bob', apiGroup: '', resource: 'groups', name: 'g2' },
  { user: 'bob', apiGroup: '', resource: 'groups', name: 'system:unauthenticated' },
  { user: 'bob', apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: 'scopes', name: 'view' },
  { user: 'bob', apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: 'scopes', name: 'edit' },
  { user: 'bob', apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: 'acme.com/project', name: 'p1' },
  { user: 'bob', apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: '%zz', name: 'raw' },
  { user: 'bob', apiGroup: 'authentication.k8s.io', resource: 'uids', name: '1234' },
];

async function run(headers: OutgoingHttpHeaders, authorizer = new GrantListAuthorizer(grants), path = '/api/v1/pods') {
  return probe((req) => impersonate(req, bob, authorizer), headers, path);
}

describe('impersonate', () => {
  it('hands back the requester itself when no Impersonate-* header is present', async () => {
    const authorizer = new GrantListAuthorizer(grants);
    const outcome = await probe((req) => impersonate(req, bob, authorizer) === bob, {
      authorization: 'Bearer x',
      'impersonate-other': 'y',
    });
    assert.deepEqual(outcome.body, { result: true });
    assert.deepEqual(authorizer.asked, []);
  });

  it('ignores an empty Impersonate-User on its own', async () => {
    assert.deepEqual((await run({ 'Impersonate-User': '' })).body, { result: bob });
  });

  it('acts as an allowed user, adding system:authenticated, after checking verb impersonate on users', async () => {
    const authorizer = new GrantListAuthorizer(grants);
    const outcome = await run({ 'Impersonate-User': 'alice' }, authorizer);
    assert.deepEqual(outcome, { status: 200, body: { result: { name: 'alice', groups: ['system:authenticated'] } } });
    assert.deepEqual(authorizer.asked, [
      {
        user: bob,
        resourceRequest: true,
        verb: 'impersonate',
        name: 'alice',
        apiGroup: '',
        apiVersion: '',
        resource: 'users',
        subresource: '',
        namespace: '',
      },
    ]);
  });

  it('refuses a user the requester may not impersonate with the Kubernetes 403', async () => {
    const outcome = await run({ 'Impersonate-User': 'carol' });
    assert.deepEqual(outcome, {
      status: 403,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
        reason: 'Forbidden',
        details: { name: 'carol', kind: 'users' },
        code: 403,
      },
    });
  });

  it("appends an authorizer's denial reason", async () => {
    const authorizer = new GrantListAuthorizer(grants, [{ user: 'bob', apiGroup: '', resource: 'users', name: 'alice' }]);
    const outcome = await run({ 'Impersonate-User': 'alice' }, authorizer);
    assert.equal(
      (outcome.body as { message: string }).message,
      'users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope: impersonation of this identity is switched off',
    );
  });

  it('checks a service account user as the serviceaccounts resource in its namespace and gives it its groups', async () => {
    const authorizer = new GrantListAuthorizer(grants);
    const outcome = await run({ 'Impersonate-User': 'system:serviceaccount:kube-system:default' }, authorizer);
    assert.deepEqual(outcome.body, {
      result: {
        name: 'system:serviceaccount:kube-system:default',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
      },
    });
    assert.equal(authorizer.asked[0]?.resourceRequest && authorizer.asked[0].namespace, 'kube-system');
    const refused = await run({ 'Impersonate-User': 'system:serviceaccount:other:default' });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'serviceaccounts "default" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"',
      reason: 'Forbidden',
      details: { name: 'default', kind: 'serviceaccounts' },
      code: 403,
    });
  });

  it('treats a service-account-like name that is not valid as a plain user', async () => {
    const outcome = await run({ 'Impersonate-User': 'system:serviceaccount:Bad:x' });
    assert.deepEqual(outcome.body, { result: { name: 'system:serviceaccount:Bad:x', groups: ['system:authenticated'] } });
  });

  it('takes explicit groups as the authority (service accounts lose their implied groups)', async () => {
    const outcome = await run({ 'Impersonate-User': 'system:serviceaccount:kube-system:default', 'Impersonate-Group': ['g1', 'g2'] });
    assert.deepEqual(outcome.body, {
      result: { name: 'system:serviceaccount:kube-system:default', groups: ['g1', 'g2', 'system:authenticated'] },
    });
    const unauthenticated = await run({ 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:unauthenticated' });
    assert.deepEqual(unauthenticated.body, { result: { name: 'alice', groups: ['system:unauthenticated'] } });
  });

  it('gives system:anonymous system:unauthenticated instead', async () => {
    assert.deepEqual((await run({ 'Impersonate-User': 'system:anonymous' })).body, {
      result: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    assert.deepEqual((await run({ 'Impersonate-User': 'system:anonymous', 'Impersonate-Group': 'g1' })).body, {
      result: { name: 'system:anonymous', groups: ['g1', 'system:unauthenticated'] },
    });
  });

  it('stops at the first refused group', async () => {
    const authorizer = new GrantListAuthorizer(grants);
    const outcome = await run({ 'Impersonate-User': 'alice', 'Impersonate-Group': ['g1', 'g3', 'g2'] }, authorizer);
    assert.equal(outcome.status, 403);
    assert.equal(
      (outcome.body as { message: string }).message,
      'groups "g3" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    assert.deepEqual(
      authorizer.asked.map((a) => (a.resourceRequest ? a.name : '')),
      ['alice', 'g1', 'g3'],
    );
  });

  it('collects extras with percent-decoded lower-case keys, each value checked as userextras/<key>', async () => {
    const outcome = await run({
      'Impersonate-User': 'alice',
      'Impersonate-Extra-Scopes': ['view', 'edit'],
      'Impersonate-Extra-acme.com%2Fproject': 'p1',
      'Impersonate-Extra-%zz': 'raw',
    });
    assert.deepEqual(outcome.body, {
      result: {
        name: 'alice',
        groups: ['system:authenticated'],
        extra: { scopes: ['view', 'edit'], 'acme.com/project': ['p1'], '%zz': ['raw'] },
      },
    });
    const refused = await run({ 'Impersonate-User': 'alice', 'Impersonate-Extra-Scopes': 'admin' });
    assert.deepEqual(refused.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'userextras.authentication.k8s.io "admin" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'admin', group: 'authentication.k8s.io', kind: 'userextras' },
      code: 403,
    });
  });

  it('sets the uid after checking the uids resource', async () => {
    assert.deepEqual((await run({ 'Impersonate-User': 'alice', 'Impersonate-Uid': '1234' })).body, {
      result: { name: 'alice', groups: ['system:authenticated'], uid: '1234' },
    });
    const refused = await run({ 'Impersonate-User': 'alice', 'Impersonate-Uid': '999' });
    assert.equal(
      (refused.body as { message: string }).message,
      'uids.authentication.k8s.io "999" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('answers 500 when groups, extras or a uid are requested without a user', async () => {
    const authorizer = new GrantListAuthorizer(grants);
    const outcome = await run(
      { 'Impersonate-Group': 'g1', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Uid': '1234' },
      authorizer,
      '/api/v1/pods?limit=1',
    );
    assert.equal(outcome.status, 500);
    assert.equal(
      (outcome.body as { message: string }).message,
      'Internal Server Error: "/api/v1/pods?limit=1": requested [{Group  g1    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  1234  authentication.k8s.io/v1  }] without impersonating a user',
    );
    assert.deepEqual(authorizer.asked, []);
  });
});
