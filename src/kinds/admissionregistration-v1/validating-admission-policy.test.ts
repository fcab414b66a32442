import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { VALIDATING_ADMISSION_POLICY } from './validating-admission-policy.js';
import { VALIDATING_ADMISSION_POLICY_BINDING } from './validating-admission-policy-binding.js';

const RULES = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }];

function errorsOf(kind: typeof VALIDATING_ADMISSION_POLICY, spec: Record<string, unknown>, name = 'p'): string[] {
  const obj: KubeObject = { apiVersion: 'admissionregistration.k8s.io/v1', kind: kind.resource.kind, metadata: { name }, spec };
  kind.strategy?.defaults?.(obj);
  return (kind.strategy?.validate?.(obj) ?? []).map((e) => `${e.field}: ${fieldErrorBody(e)}`);
}

const policyErrors = (spec: Record<string, unknown>): string[] => errorsOf(VALIDATING_ADMISSION_POLICY, spec);
const bindingErrors = (spec: Record<string, unknown>): string[] => errorsOf(VALIDATING_ADMISSION_POLICY_BINDING, spec);

test('defaults: failurePolicy Fail, matchPolicy Equivalent, empty selectors, scope * (R11.144)', () => {
  const obj: KubeObject = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: { matchConstraints: { resourceRules: [...RULES] } },
  };
  VALIDATING_ADMISSION_POLICY.strategy?.defaults?.(obj);
  assert.deepEqual(obj.spec, {
    failurePolicy: 'Fail',
    matchConstraints: {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ ...RULES[0], scope: '*' }],
    },
  });
});

test('a valid policy has no errors; one without validations or auditAnnotations is refused (R11.146)', () => {
  assert.deepEqual(
    policyErrors({ matchConstraints: { resourceRules: RULES }, validations: [{ expression: 'object.spec.replicas <= 5' }] }),
    [],
  );
  assert.deepEqual(policyErrors({ matchConstraints: { resourceRules: RULES } }), [
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  assert.deepEqual(policyErrors({ validations: [{ expression: 'true' }] }), ['spec.matchConstraints: Required value']);
});

test('validation expressions must compile to exactly bool, messages be single-line, reasons supported (R11.147)', () => {
  const errs = policyErrors({
    matchConstraints: { resourceRules: RULES },
    validations: [
      { expression: 'object.spec.enabled' },
      { expression: 'true', message: 'a\nb', reason: 'Unauthorized' },
      { expression: 'true', messageExpression: '1' },
      { expression: 'params.x' },
    ],
  });
  assert.deepEqual(errs.slice(0, 4), [
    'spec.validations[0].expression: Invalid value: "object.spec.enabled": must evaluate to bool but got dyn',
    'spec.validations[1].message: Invalid value: "a\\nb": message must not contain line breaks',
    'spec.validations[1].reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
    'spec.validations[2].messageExpression: Invalid value: "1": must evaluate to string but got int',
  ]);
  assert.match(
    errs[4] ?? '',
    /^spec\.validations\[3\]\.expression: Invalid value: "params\.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/,
  );
});

test('variables: names must be CEL identifiers, and may use only earlier variables (R11.148)', () => {
  const errs = policyErrors({
    matchConstraints: { resourceRules: RULES },
    variables: [
      { name: 'in', expression: 'variables.later' },
      { name: 'later', expression: '1' },
    ],
    validations: [{ expression: 'variables.later == 1' }],
  });
  assert.equal(errs[0], 'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier');
  assert.match(
    errs[1] ?? '',
    /^spec\.variables\[0\]\.expression: Invalid value: "variables\.later": compilation failed: .*undefined field 'later'/,
  );
  assert.equal(errs.length, 2);
});

test('at most 64 matchConditions, and they cannot use variables (R11.150)', () => {
  const conditions = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  assert.deepEqual(
    policyErrors({ matchConstraints: { resourceRules: RULES }, matchConditions: conditions, validations: [{ expression: 'true' }] }),
    ['spec.matchConditions: Too many: 65: must have at most 64 items'],
  );
  const errs = policyErrors({
    matchConstraints: { resourceRules: RULES },
    variables: [{ name: 'v', expression: 'true' }],
    matchConditions: [{ name: 'c', expression: 'variables.v' }],
    validations: [{ expression: 'true' }],
  });
  assert.match(
    errs[0] ?? '',
    /^spec\.matchConditions\[0\]\.expression: Invalid value: "variables\.v": compilation failed: .*undeclared reference to 'variables'/,
  );
});

test('rules: operations supported, * alone, resources without overlaps (R11.13-R11.15)', () => {
  assert.deepEqual(
    policyErrors({
      matchConstraints: {
        resourceRules: [{ apiGroups: ['*', 'apps'], apiVersions: ['v1'], operations: ['GET'], resources: ['pods/*', 'pods/status'] }],
      },
      validations: [{ expression: 'true' }],
    }),
    [
      'spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other API groups',
      'spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status',
    ],
  );
});

test('bindings: policyName, paramRef and validationActions rules; matchResources under the misspelled path (R11.152, Q6)', () => {
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: ['Deny'] }), []);
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: [] }), [
    'spec.validationActions: Required value: at least one validation action is required',
  ]);
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: ['Deny', 'Deny', 'Block'] }), [
    'spec.validationActions[1]: Duplicate value: "Deny"',
    'spec.validationActions[2]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"',
  ]);
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'x', selector: {} } }), [
    'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Required value',
  ]);
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: ['Deny'], paramRef: { parameterNotFoundAction: 'Allow' } }), [
    'spec.paramRef: Required value: one of name or selector must be specified',
  ]);
  assert.deepEqual(bindingErrors({ validationActions: ['Audit'], matchResources: { matchPolicy: 'Fuzzy' } }), [
    'spec.policyName: Required value',
    'spec.matchResouces.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
  ]);
});

test('printer cells: validation count and paramKind, policy name and paramRef (kubectl get)', () => {
  const now = new Date('2026-01-01T00:00:10Z');
  const meta = { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' };
  const p: KubeObject = {
    apiVersion: 'x',
    kind: 'ValidatingAdmissionPolicy',
    metadata: meta,
    spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{}, {}] },
  };
  assert.deepEqual(VALIDATING_ADMISSION_POLICY.printer?.row(p, now), ['p', 2, 'v1/ConfigMap', '10s']);
  const b = (paramRef: unknown): KubeObject => ({
    apiVersion: 'x',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: meta,
    spec: { policyName: 'q', paramRef },
  });
  assert.deepEqual(VALIDATING_ADMISSION_POLICY_BINDING.printer?.row(b({ name: 'n' }), now), ['p', 'q', '*/n', '10s']);
  assert.deepEqual(VALIDATING_ADMISSION_POLICY_BINDING.printer?.row(b({ name: 'n', namespace: 'ns' }), now), ['p', 'q', 'ns/n', '10s']);
  assert.deepEqual(VALIDATING_ADMISSION_POLICY_BINDING.printer?.row(b({ selector: { matchLabels: { a: 'b' } } }), now), [
    'p',
    'q',
    '&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}',
    '10s',
  ]);
});
