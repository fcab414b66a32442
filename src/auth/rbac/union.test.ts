import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthorizationAttributes, Authorizer, Decision, RulesInfo } from '../authorizer.js';
import { SYSTEM_MASTERS, type UserInfo } from '../../api/user.js';
import { privilegedGroupsAuthorizer } from './privileged-groups.js';
import { unionAuthorizer } from './union.js';

const attrs = (user: UserInfo): AuthorizationAttributes => ({ user, resourceRequest: false, verb: 'get', path: '/healthz' });

const fixed = (
  decision: Decision,
  rules: RulesInfo = { resourceRules: [], nonResourceRules: [], incomplete: false },
): Authorizer & { calls: number } => {
  const a = {
    calls: 0,
    authorize: () => {
      a.calls++;
      return decision;
    },
    rulesFor: () => rules,
  };
  return a;
};

test('system:masters members are allowed everything; others get no opinion', () => {
  const privileged = privilegedGroupsAuthorizer();
  assert.deepEqual(privileged.authorize(attrs({ name: 'root', groups: ['x', SYSTEM_MASTERS] })), { decision: 'allow', reason: '' });
  assert.deepEqual(privileged.authorize(attrs({ name: 'system:masters', groups: [] })), { decision: 'noOpinion', reason: '' });
  assert.deepEqual(privileged.rulesFor({ name: 'root', groups: [SYSTEM_MASTERS] }, 'ns'), {
    resourceRules: [],
    nonResourceRules: [],
    incomplete: false,
  });
});

test('the union stops at the first allow or deny and otherwise joins the reasons', () => {
  const user: UserInfo = { name: 'u', groups: [] };
  const silent = fixed({ decision: 'noOpinion', reason: '' });
  const explains = fixed({ decision: 'noOpinion', reason: 'RBAC: role missing' });
  const denies = fixed({ decision: 'deny', reason: 'no way' });
  const allows = fixed({ decision: 'allow', reason: 'yes' });
  assert.deepEqual(unionAuthorizer(silent, denies, allows).authorize(attrs(user)), { decision: 'deny', reason: 'no way' });
  assert.equal(allows.calls, 0);
  assert.deepEqual(unionAuthorizer(explains, allows).authorize(attrs(user)), { decision: 'allow', reason: 'yes' });
  assert.deepEqual(unionAuthorizer(explains, silent, fixed({ decision: 'noOpinion', reason: 'webhook: down' })).authorize(attrs(user)), {
    decision: 'noOpinion',
    reason: 'RBAC: role missing\nwebhook: down',
  });
  assert.deepEqual(unionAuthorizer().authorize(attrs(user)), { decision: 'noOpinion', reason: '' });
});

test('the union concatenates rules, ORs incompleteness and aggregates evaluation errors', () => {
  const user: UserInfo = { name: 'u', groups: [] };
  const a = fixed(
    { decision: 'noOpinion', reason: '' },
    {
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [],
      incomplete: false,
      evaluationError: 'e1',
    },
  );
  const b = fixed(
    { decision: 'noOpinion', reason: '' },
    { resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: true, evaluationError: 'e2' },
  );
  assert.deepEqual(unionAuthorizer(a, b).rulesFor(user, 'ns'), {
    resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
    incomplete: true,
    evaluationError: '[e1, e2]',
  });
  assert.deepEqual(unionAuthorizer(a, privilegedGroupsAuthorizer()).rulesFor(user, 'ns').evaluationError, 'e1');
});
