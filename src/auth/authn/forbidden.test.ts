import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NonResourceAttributes, ResourceAttributes } from '../authorizer.js';
import type { UserInfo } from '../../api/user.js';
import { forbidden } from './forbidden.js';

const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };

function resource(overrides: Partial<ResourceAttributes>): ResourceAttributes {
  return {
    user: bob,
    resourceRequest: true,
    verb: 'get',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    namespace: '',
    name: '',
    ...overrides,
  };
}

describe('forbidden (responsewriters.Forbidden) — R9.7', () => {
  it('names the object of a core resource in a namespace', () => {
    const err = forbidden(resource({ namespace: 'default', name: 'web' }), '');
    assert.equal(err.code, 403);
    assert.equal(err.reason, 'Forbidden');
    assert.equal(err.message, 'pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"');
    assert.deepEqual(err.details, { name: 'web', kind: 'pods' });
  });

  it('drops the name for collection requests and says cluster scope without a namespace', () => {
    const err = forbidden(resource({ verb: 'list', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments' }), '');
    assert.equal(
      err.message,
      'deployments.apps is forbidden: User "bob" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
    assert.deepEqual(err.details, { group: 'apps', kind: 'deployments' });
  });

  it('joins the subresource to the resource and keeps the group out of the quoted resource', () => {
    const err = forbidden(
      resource({
        verb: 'update',
        apiGroup: 'cost.example.com',
        resource: 'budgets',
        subresource: 'status',
        namespace: 'team-a',
        name: 'q3',
      }),
      '',
    );
    assert.equal(
      err.message,
      'budgets.cost.example.com "q3" is forbidden: User "bob" cannot update resource "budgets/status" in API group "cost.example.com" in the namespace "team-a"',
    );
    assert.deepEqual(err.details, { name: 'q3', group: 'cost.example.com', kind: 'budgets' });
  });

  it("appends the authorizer's reason after a colon", () => {
    const err = forbidden(
      resource({ verb: 'delete', resource: 'nodes', name: 'n1' }),
      'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    );
    assert.equal(
      err.message,
      'nodes "n1" is forbidden: User "bob" cannot delete resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    );
  });

  it('words non-resource requests as paths with empty details', () => {
    const attributes: NonResourceAttributes = {
      user: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
      resourceRequest: false,
      verb: 'get',
      path: '/metrics',
    };
    const err = forbidden(attributes, '');
    assert.equal(err.message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
    assert.deepEqual(err.details, {});
    assert.equal(
      JSON.stringify(err.toStatus()),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/metrics\\"","reason":"Forbidden","details":{},"code":403}',
    );
  });

  it('quotes like Go and escapes HTML in the message but not in the reason', () => {
    const attributes: NonResourceAttributes = {
      user: { name: 'a"b', groups: [] },
      resourceRequest: false,
      verb: 'post',
      path: '/x<y>&z\n',
    };
    assert.equal(forbidden(attributes, 'why <not>').message, 'forbidden: User "a\\"b" cannot post path "/x&lt;y&gt;&amp;z\\n": why <not>');
  });
});
