import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthorizationAttributes } from '../authorizer.js';
import { serviceAccountUser, type UserInfo } from '../../api/user.js';
import { type PolicyRule, policyRule } from './policy.js';
import { ruleAllows, subjectMatches } from './rule-matching.js';

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };

const res = (
  verb: string,
  group: string,
  resource: string,
  extra: { sub?: string; name?: string; ns?: string } = {},
): AuthorizationAttributes => ({
  user: alice,
  resourceRequest: true,
  verb,
  apiGroup: group,
  apiVersion: 'v1',
  resource,
  subresource: extra.sub ?? '',
  namespace: extra.ns ?? 'default',
  name: extra.name ?? '',
});
const url = (verb: string, path: string): AuthorizationAttributes => ({ user: alice, resourceRequest: false, verb, path });
const r = (fields: Record<string, string[]>): PolicyRule => policyRule(fields);

test('resource rules: verbs, groups, resources, subresources and names', () => {
  const table: [string, PolicyRule, AuthorizationAttributes, boolean][] = [
    ['exact match', r({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), res('get', '', 'pods', { name: 'p' }), true],
    ['other verb', r({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), res('list', '', 'pods'), false],
    ['verb *', r({ verbs: ['*'], apiGroups: [''], resources: ['pods'] }), res('deletecollection', '', 'pods'), true],
    ['other group', r({ verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }), res('get', '', 'pods'), false],
    ['group *', r({ verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }), res('get', 'apps', 'deployments'), true],
    ['no groups listed', r({ verbs: ['get'], resources: ['pods'] }), res('get', '', 'pods'), false],
    ['resource *', r({ verbs: ['get'], apiGroups: [''], resources: ['*'] }), res('get', '', 'pods', { sub: 'log' }), true],
    [
      'resource does not grant its subresources',
      r({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }),
      res('get', '', 'pods', { sub: 'log' }),
      false,
    ],
    ['res/sub', r({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), res('get', '', 'pods', { sub: 'log' }), true],
    ['res/sub does not grant res', r({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), res('get', '', 'pods'), false],
    [
      '*/sub',
      r({ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }),
      res('update', 'apps', 'deployments', { sub: 'status' }),
      true,
    ],
    [
      '*/sub other subresource',
      r({ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }),
      res('update', 'apps', 'deployments', { sub: 'scale' }),
      false,
    ],
    ['*/sub does not grant the resource', r({ verbs: ['get'], apiGroups: [''], resources: ['*/status'] }), res('get', '', 'pods'), false],
    [
      'res/* is not a wildcard',
      r({ verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }),
      res('get', '', 'pods', { sub: 'log' }),
      false,
    ],
    [
      'names: listed',
      r({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }),
      res('get', '', 'configmaps', { name: 'b' }),
      true,
    ],
    [
      'names: other',
      r({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }),
      res('get', '', 'configmaps', { name: 'c' }),
      false,
    ],
    [
      'names never match collections',
      r({ verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }),
      res('list', '', 'configmaps'),
      false,
    ],
    ['resource rule never matches a URL', r({ verbs: ['get'], apiGroups: ['*'], resources: ['*'] }), url('get', '/healthz'), false],
  ];
  for (const [what, rule, attrs, want] of table) assert.equal(ruleAllows(attrs, rule), want, what);
});

test('non-resource rules: exact paths, trailing-* prefixes and *', () => {
  const table: [string, PolicyRule, AuthorizationAttributes, boolean][] = [
    ['exact', r({ verbs: ['get'], nonResourceURLs: ['/healthz'] }), url('get', '/healthz'), true],
    ['exact only', r({ verbs: ['get'], nonResourceURLs: ['/healthz'] }), url('get', '/healthz/etcd'), false],
    ['prefix', r({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }), url('get', '/healthz/etcd'), true],
    ['prefix keeps the slash', r({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }), url('get', '/healthz'), false],
    ['stars trimmed', r({ verbs: ['get'], nonResourceURLs: ['/api**'] }), url('get', '/apis'), true],
    ['all', r({ verbs: ['get'], nonResourceURLs: ['*'] }), url('get', '/version'), true],
    ['verb', r({ verbs: ['get'], nonResourceURLs: ['*'] }), url('post', '/version'), false],
    ['URL rule never matches resources', r({ verbs: ['*'], nonResourceURLs: ['*'] }), res('get', '', 'pods'), false],
  ];
  for (const [what, rule, attrs, want] of table) assert.equal(ruleAllows(attrs, rule), want, what);
});

test("subjects: users, groups and service accounts (namespace defaults to the RoleBinding's)", () => {
  const sa = serviceAccountUser('team', 'builder');
  const table: [string, { kind: string; name: string; namespace: string }, UserInfo, string, boolean][] = [
    ['user', { kind: 'User', name: 'alice', namespace: '' }, alice, '', true],
    ['other user', { kind: 'User', name: 'bob', namespace: '' }, alice, '', false],
    ['group', { kind: 'Group', name: 'dev', namespace: '' }, alice, '', true],
    ['group is not a user', { kind: 'User', name: 'dev', namespace: '' }, alice, '', false],
    ['sa', { kind: 'ServiceAccount', name: 'builder', namespace: 'team' }, sa, '', true],
    ['sa other namespace', { kind: 'ServiceAccount', name: 'builder', namespace: 'other' }, sa, 'team', false],
    ['sa namespace from binding', { kind: 'ServiceAccount', name: 'builder', namespace: '' }, sa, 'team', true],
    ['sa without any namespace', { kind: 'ServiceAccount', name: 'builder', namespace: '' }, sa, '', false],
    ['sa group', { kind: 'Group', name: 'system:serviceaccounts:team', namespace: '' }, sa, '', true],
    ['unknown kind', { kind: 'Robot', name: 'alice', namespace: '' }, alice, '', false],
  ];
  for (const [what, subject, user, ns, want] of table) assert.equal(subjectMatches(user, subject, ns), want, what);
});
