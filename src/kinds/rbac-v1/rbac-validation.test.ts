import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateClusterRoleBinding, validateRoleBinding, validateRoleBindingUpdate } from './binding-validation.js';
import { validateClusterRole, validateRole } from './role-validation.js';

// Cases from pkg/apis/rbac/validation: ValidateRole, ValidateClusterRole, ValidatePolicyRule, ValidateRoleBinding,
// ValidateClusterRoleBinding, ValidateRoleBindingUpdate and validateRoleBindingSubject.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const GROUP = 'rbac.authorization.k8s.io';
const role = (kind: string, fields: Record<string, unknown>): KubeObject => ({
  apiVersion: `${GROUP}/v1`,
  kind,
  metadata: { name: 'r' },
  ...fields,
});
const binding = (kind: string, fields: Record<string, unknown>): KubeObject =>
  role(kind, {
    roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: GROUP, name: 'alice' }],
    ...fields,
  });

test('ValidatePolicyRule: valid resource and URL rules', () => {
  assert.deepEqual(render(validateRole(role('Role', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }))), []);
  assert.deepEqual(render(validateClusterRole(role('ClusterRole', { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] }))), []);
});

test('ValidatePolicyRule: verbs, api groups and resources are required', () => {
  assert.deepEqual(render(validateRole(role('Role', { rules: [{}] }))), [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
  ]);
  assert.deepEqual(
    render(
      validateRole(role('Role', { rules: [{ apiGroups: [''], resources: ['pods', 'services'], resourceNames: ['a'], verbs: ['get'] }] })),
    ),
    ['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources'],
  );
});

test('ValidatePolicyRule: non-resource URLs only cluster-wide and never with resources', () => {
  assert.deepEqual(
    render(validateRole(role('Role', { rules: [{ nonResourceURLs: ['/metrics'], resources: ['pods'], verbs: ['get'] }] }))),
    [
      'rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs',
      'rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
  );
});

test('ValidateClusterRole: an aggregation rule needs valid selectors', () => {
  assert.deepEqual(render(validateClusterRole(role('ClusterRole', { aggregationRule: { clusterRoleSelectors: [] } }))), [
    'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
  ]);
  const selectors = [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }];
  assert.deepEqual(render(validateClusterRole(role('ClusterRole', { aggregationRule: { clusterRoleSelectors: selectors } }))), []);
});

test('ValidateRoleBinding: the role reference', () => {
  assert.deepEqual(render(validateRoleBinding(binding('RoleBinding', {}))), []);
  assert.deepEqual(render(validateRoleBinding(binding('RoleBinding', { roleRef: { apiGroup: 'rbac', kind: 'Policy', name: '' } }))), [
    'roleRef.apiGroup: Unsupported value: "rbac": supported values: "rbac.authorization.k8s.io"',
    'roleRef.kind: Unsupported value: "Policy": supported values: "Role", "ClusterRole"',
    'roleRef.name: Required value',
  ]);
  assert.deepEqual(
    render(validateClusterRoleBinding(binding('ClusterRoleBinding', { roleRef: { apiGroup: GROUP, kind: 'Role', name: 'a/b' } }))),
    [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
    ],
  );
});

test('validateRoleBindingSubject: kinds, api groups, names and namespaces', () => {
  const subjects = [
    { kind: 'ServiceAccount', name: 'Builder', apiGroup: GROUP },
    { kind: 'User', name: '' },
    { kind: 'Group', name: 'devs', apiGroup: 'example.com' },
    { kind: 'Robot', name: 'r2' },
  ];
  assert.deepEqual(render(validateClusterRoleBinding(binding('ClusterRoleBinding', { subjects }))), [
    "subjects[0].name: Invalid value: \"Builder\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
    'subjects[0].namespace: Required value',
    'subjects[1].name: Required value',
    'subjects[1].name: Invalid value: "": user name cannot be empty',
    'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
    'subjects[2].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    'subjects[3].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
});

test('ValidateRoleBindingUpdate: the roleRef cannot change; subjects can', () => {
  const old = binding('RoleBinding', {});
  assert.deepEqual(render(validateRoleBindingUpdate(binding('RoleBinding', { subjects: [] }), old)), []);
  assert.deepEqual(
    render(validateRoleBindingUpdate(binding('RoleBinding', { roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'edit' } }), old)),
    ['roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef'],
  );
});
