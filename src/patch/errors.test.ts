import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invalidPatchedObject } from './errors.js';
import { goStringVerb, goTypeOf, goValue } from './go-format.js';

describe('invalidPatchedObject', () => {
  it('renders the 422 kube-apiserver gives when the patched object fails to decode', () => {
    const err = invalidPatchedObject(
      '{"spec":{"replicas":"x"}}',
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.equal(err.code, 422);
    assert.equal(err.reason, 'Invalid');
    assert.equal(
      err.message,
      ' "" is invalid: patch: Invalid value: "{\\"spec\\":{\\"replicas\\":\\"x\\"}}": json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.deepEqual(err.details?.causes, [
      {
        reason: 'FieldValueInvalid',
        field: 'patch',
        message:
          'Invalid value: "{\\"spec\\":{\\"replicas\\":\\"x\\"}}": json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      },
    ]);
  });
});

describe('Go value rendering used in patch error messages', () => {
  const cases: [unknown, string][] = [
    [{ name: 'a', image: 'x', ports: [{ containerPort: 80 }] }, 'map[image:x name:a ports:[map[containerPort:80]]]'],
    [[1, 'two', true, null], '[1 two true <nil>]'],
    [0.5, '0.5'],
    [1234567.5, '1.2345675e+06'],
    [0.00001, '1e-05'],
  ];
  for (const [value, expected] of cases) {
    it(`goValue(${JSON.stringify(value)}) = ${expected}`, () => assert.equal(goValue(value), expected));
  }

  it('goTypeOf and goStringVerb follow reflect and %s', () => {
    assert.deepEqual(
      [goTypeOf(1), goTypeOf(1.5), goTypeOf('s'), goTypeOf([]), goTypeOf({})],
      ['int64', 'float64', 'string', '[]interface {}', 'map[string]interface {}'],
    );
    assert.deepEqual([goStringVerb('x'), goStringVerb(5), goStringVerb(null)], ['x', '%!s(int64=5)', '%!s(<nil>)']);
  });
});
