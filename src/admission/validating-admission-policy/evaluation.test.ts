import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONFIG_MAP } from '../../kinds/core-v1/config-map.js';
import type { KubeObject } from '../../api/types.js';
import { admissionAttributes } from '../../registry/admission/attributes.js';
import { activationFor, RequestInputs } from './activation.js';
import { compilePolicy } from './compiled-policy.js';
import { denialError, denialText, warningText } from './denial.js';
import { evaluatePolicy } from './evaluation.js';

const GVR = { group: '', version: 'v1', resource: 'configmaps' };

function policy(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p', generation: 1 },
    spec: { failurePolicy: 'Fail', ...spec },
  };
}

function run(spec: Record<string, unknown>, data: Record<string, string>, param: KubeObject | null = null) {
  const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data };
  const attributes = admissionAttributes({
    operation: 'CREATE',
    resource: CONFIG_MAP.resource,
    object: obj,
    user: { name: 'alice', groups: ['devs'] },
  });
  const compiled = compilePolicy(policy(spec));
  return evaluatePolicy(compiled, activationFor(new RequestInputs(attributes, undefined), compiled, GVR, param));
}

test('a false validation is a decision with its message, else failed expression, reason Invalid by default (R11.167, R11.168)', () => {
  assert.deepEqual(run({ validations: [{ expression: 'has(object.data.ok)' }] }, {}), [
    { message: 'failed expression: has(object.data.ok)', reason: 'Invalid', expressionIndex: 0 },
  ]);
  assert.deepEqual(run({ validations: [{ expression: 'false', message: ' no ', reason: 'Forbidden' }] }, {}), [
    { message: 'no', reason: 'Forbidden', expressionIndex: 0 },
  ]);
  assert.deepEqual(run({ validations: [{ expression: 'true' }] }, {}), []);
});

test('messageExpression wins when it yields a usable string, and falls back when blank or failing (R11.168)', () => {
  const v = (messageExpression: string) => ({ validations: [{ expression: 'false', message: 'fallback', messageExpression }] });
  assert.equal(run(v("'cm ' + object.metadata.name"), {})[0]?.message, 'cm cm');
  assert.equal(run(v("'  '"), {})[0]?.message, 'fallback');
  assert.equal(run(v('object.data.nope'), {})[0]?.message, 'fallback');
});

test('a runtime error denies under Fail with the expression quoted, and is dropped under Ignore (R11.167)', () => {
  const spec = { validations: [{ expression: "object.data.missing == 'x'" }] };
  assert.deepEqual(run(spec, { k: 'v' }), [
    { message: "expression 'object.data.missing == 'x'' resulted in error: no such key: missing", reason: 'Invalid', expressionIndex: 0 },
  ]);
  assert.deepEqual(run({ ...spec, failurePolicy: 'Ignore' }, { k: 'v' }), []);
});

test('variables are evaluated lazily, at most once, compose, and report their failure to every user (R11.165)', () => {
  const spec = {
    variables: [
      { name: 'keys', expression: 'size(object.data)' },
      { name: 'many', expression: 'variables.keys > 1' },
      { name: 'bad', expression: 'object.data.nope' },
    ],
    validations: [{ expression: '!variables.many' }, { expression: "variables.bad == 'x'" }],
  };
  assert.deepEqual(run(spec, { a: '1', b: '2' }), [
    { message: 'failed expression: !variables.many', reason: 'Invalid', expressionIndex: 0 },
    {
      message: `expression 'variables.bad == 'x'' resulted in error: composited variable "bad" fails to evaluate: no such key: nope`,
      reason: 'Invalid',
      expressionIndex: 1,
    },
  ]);
  assert.deepEqual(run({ ...spec, validations: [{ expression: '!variables.many' }] }, { a: '1' }), []);
});

test('params are bound as dyn, null without a param (R11.157, R11.158)', () => {
  const spec = {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [{ expression: 'params == null || size(object.data) <= int(params.data.max)' }],
  };
  const param: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { max: '1' } };
  assert.equal(run(spec, { a: '1', b: '2' }, param).length, 1);
  assert.equal(run(spec, { a: '1' }, param).length, 0);
  assert.equal(run(spec, { a: '1', b: '2' }, null).length, 0);
});

test('request carries the operation, resource, name, namespace and user (R11.162)', () => {
  const expression =
    "request.operation == 'CREATE' && request.resource.resource == 'configmaps' && request.name == 'cm' && request.namespace == 'ns' && request.userInfo.username == 'alice' && request.dryRun == false";
  assert.deepEqual(run({ validations: [{ expression }] }, {}), []);
});

test('a false match condition skips the policy; an erroring one denies under Fail (R11.47, R11.156)', () => {
  const validations = [{ expression: 'false' }];
  assert.deepEqual(
    run(
      {
        matchConditions: [
          { name: 'never', expression: 'false' },
          { name: 'err', expression: "object.data.x == 'y'" },
        ],
        validations,
      },
      {},
    ),
    [],
  );
  assert.deepEqual(run({ matchConditions: [{ name: 'err', expression: "object.data.x == 'y'" }], validations }, {}), [
    { message: "expression 'object.data.x == 'y'' resulted in error: no such key: x", reason: 'Invalid', expressionIndex: -1 },
  ]);
});

test('denials and warnings are worded as Kubernetes words them, with the reason choosing the code (R11.169, R11.171)', () => {
  const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } };
  const attributes = admissionAttributes({ operation: 'CREATE', resource: CONFIG_MAP.resource, object: obj });
  const err = denialError(attributes, denialText('p', 'b', 'too big'), 'Invalid');
  assert.equal(err.code, 422);
  assert.equal(err.message, `configmaps "cm" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: too big`);
  assert.deepEqual(err.details, {
    name: 'cm',
    kind: 'configmaps',
    causes: [{ message: "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: too big" }],
  });
  assert.equal(denialError(attributes, 'x', 'Forbidden').code, 403);
  assert.equal(denialError(attributes, 'x', 'RequestEntityTooLarge').code, 413);
  assert.equal(denialError(attributes, 'x', 'Unauthorized').code, 401);
  assert.equal(denialText('p', undefined, 'm'), "ValidatingAdmissionPolicy 'p' denied request: m");
  assert.equal(warningText('p', 'b', 'm'), "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': m");
});
