import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps, ValidationRule } from '../../api/json-schema-props.js';
import { rendered } from '../schema/test-helpers.js';
import { validateSchemaRules } from './crd-rules.js';
import { evaluateRules } from './evaluate.js';
import { compileSchemaRules } from './rules.js';
import { escapePropertyName } from './schema-types.js';

function spec(properties: Record<string, JSONSchemaProps>, rules: ValidationRule[], extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': rules, ...extra } } };
}

function run(schema: JSONSchemaProps, obj: unknown, old?: unknown): string[] {
  const compiled = compileSchemaRules(schema);
  assert.ok(compiled !== undefined);
  for (const node of compiled.nodes.values()) for (const r of node.rules) assert.equal(r.error, undefined, r.error);
  return rendered(evaluateRules(compiled, schema, obj, old));
}

describe('CRD rules: type mapping (R11.108–R11.111)', () => {
  it('maps integer to int, number to double, formats to timestamp/duration/bytes, int-or-string to dyn', () => {
    const schema = spec(
      {
        i: { type: 'integer' },
        n: { type: 'number' },
        t: { type: 'string', format: 'date-time' },
        d: { type: 'string', format: 'date' },
        dur: { type: 'string', format: 'duration' },
        b: { type: 'string', format: 'byte' },
        ios: { 'x-kubernetes-int-or-string': true },
      },
      [
        { rule: 'self.i + 1 == 4' },
        { rule: 'self.n == 2.0 && type(self.n) == double' },
        { rule: "self.t > timestamp('2020-01-01T00:00:00Z')" },
        { rule: "self.d == timestamp('2024-02-03T00:00:00Z')" },
        { rule: "self.dur > duration('1m')" },
        { rule: "self.b == b'hi'" },
        { rule: "type(self.ios) == string ? self.ios.endsWith('%') : self.ios < 5" },
      ],
    );
    const obj = { spec: { i: 3, n: 2, t: '2024-01-01T00:00:00Z', d: '2024-02-03', dur: '1h', b: 'aGk=', ios: '50%' } };
    assert.deepEqual(run(schema, obj), []);
    assert.deepEqual(run(schema, { spec: { ...obj.spec, ios: 7 } }), ['spec: Invalid value: "object": failed rule: type(self.ios) == string ? self.ios.endsWith(\'%\') : self.ios < 5']);
  });

  it('maps additionalProperties to maps and arrays to lists; rules run per item and per value', () => {
    const schema = spec(
      {
        labels: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() < 4', message: 'too long' }] } },
        items: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= 0' }] } },
      },
      [{ rule: "self.labels.all(k, k.startsWith('a'))" }, { rule: 'self.items.sum() < 10' }],
    );
    assert.deepEqual(run(schema, { spec: { labels: { a1: 'x', b: 'long!' }, items: [1, -2, 30] } }), [
      'spec: Invalid value: "object": failed rule: self.labels.all(k, k.startsWith(\'a\'))',
      'spec: Invalid value: "object": failed rule: self.items.sum() < 10',
      'spec.labels[b]: Invalid value: "string": too long',
      'spec.items[1]: Invalid value: "integer": failed rule: self >= 0',
    ]);
  });

  it('exposes apiVersion, kind, metadata.name and generateName at the root, and no other metadata', () => {
    const schema: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a') && self.kind == 'W'" }], properties: { spec: { type: 'object' } } };
    assert.deepEqual(run(schema, { kind: 'W', apiVersion: 'x/v1', metadata: { name: 'abc', labels: { a: 'b' } } }), []);
    assert.match(validateSchemaRules({ ...schema, 'x-kubernetes-validations': [{ rule: 'self.metadata.labels.size() > 0' }] }, 'x')[0]?.detail ?? '', /undefined field 'labels'/);
  });

  it('escapes property names as Kubernetes does', () => {
    assert.equal(escapePropertyName('x-prop'), 'x__dash__prop');
    assert.equal(escapePropertyName('a.b/c__d'), 'a__dot__b__slash__c__underscores__d');
    assert.equal(escapePropertyName('namespace'), '__namespace__');
    assert.equal(escapePropertyName('1abc'), undefined);
    const schema = spec({ 'x-prop': { type: 'integer' }, namespace: { type: 'string' } }, [{ rule: "self.x__dash__prop == 1 && self.__namespace__ == 'n'" }]);
    assert.deepEqual(run(schema, { spec: { 'x-prop': 1, namespace: 'n' } }), []);
  });

  it('treats absent and null fields as absent (has() false, selection a runtime error)', () => {
    const schema = spec({ a: { type: 'integer', nullable: true } }, [{ rule: '!has(self.a)' }, { rule: 'self.a > 0' }]);
    assert.deepEqual(run(schema, { spec: { a: null } }), ['spec: Invalid value: "object": no such key: a evaluating rule: self.a > 0']);
  });

  it('does not expose untyped preserve-unknown-fields data', () => {
    const errs = validateSchemaRules(spec({ free: { 'x-kubernetes-preserve-unknown-fields': true } }, [{ rule: 'self.free == 1' }]), 'x');
    assert.match(errs[0]?.detail ?? '', /undefined field 'free'/);
  });
});

describe('CRD rules: messages, reasons, fieldPath (R11.122–R11.125)', () => {
  it('uses messageExpression, then message, then the rule; reason and fieldPath shape the cause', () => {
    const schema = spec({ n: { type: 'integer' }, b: { type: 'string' } }, [
      { rule: 'self.n < 10', messageExpression: "'n is ' + string(self.n)", message: 'unused' },
      { rule: 'self.n < 5', message: ' n too big ' },
      { rule: "self.b != 'x'", reason: 'FieldValueForbidden', fieldPath: '.b' },
      { rule: 'self.n < 3', reason: 'FieldValueRequired', messageExpression: "''" },
      { rule: 'self.n < 2', reason: 'FieldValueDuplicate' },
    ]);
    assert.deepEqual(run(schema, { spec: { n: 20, b: 'x' } }), [
      'spec: Invalid value: "object": n is 20',
      'spec: Invalid value: "object": n too big',
      "spec.b: Forbidden: failed rule: self.b != 'x'",
      'spec: Required value: failed rule: self.n < 3',
      'spec: Duplicate value: "object"',
    ]);
  });
});

describe('CRD rules: transition rules (R11.117, R11.118)', () => {
  const schema = spec(
    {
      id: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'id is immutable' }] },
      ver: { type: 'string', 'x-kubernetes-validations': [{ rule: "oldSelf.hasValue() || self.startsWith('v')", optionalOldSelf: true }] },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.port >= oldSelf.port' }] },
      },
    },
    [],
  );
  it('skips oldSelf rules on create, runs optionalOldSelf rules with optional.none()', () => {
    assert.deepEqual(run(schema, { spec: { id: 'a', ver: 'x' } }), ['spec.ver: Invalid value: "string": failed rule: oldSelf.hasValue() || self.startsWith(\'v\')']);
  });
  it('runs them on update where the old value correlates, list-type map items by key', () => {
    const old = { spec: { id: 'a', ver: 'x', ports: [{ name: 'http', port: 80 }] } };
    assert.deepEqual(run(schema, { spec: { id: 'b', ver: 'x', ports: [{ name: 'new', port: 1 }, { name: 'http', port: 79 }] } }, old), [
      'spec.id: Invalid value: "string": id is immutable',
      'spec.ports[1]: Invalid value: "object": failed rule: self.port >= oldSelf.port',
    ]);
  });
});

describe('CRD rules: CRD-time errors (R11.101–R11.103)', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  it('reports field errors before compiling', () => {
    const errs = validateSchemaRules(spec({}, [{ rule: ' ' }, { rule: 'true', message: ' ' }, { rule: 'true', reason: 'Nope' }]), at);
    assert.deepEqual(rendered(errs), [
      `${at}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${at}.properties[spec].x-kubernetes-validations[1].message: Invalid value: " ": message must be non-empty if specified`,
      `${at}.properties[spec].x-kubernetes-validations[2].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]);
  });
  it('reports compile errors with the rule struct and cel-go wording', () => {
    const errs = validateSchemaRules(spec({ a: { type: 'integer' } }, [{ rule: 'self.nope > 0' }, { rule: 'self.a' }, { rule: 'true', messageExpression: '1' }]), at);
    assert.deepEqual(rendered(errs), [
      `${at}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.nope > 0", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 0\n | ....^`,
      `${at}.properties[spec].x-kubernetes-validations[1].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.a", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool`,
      `${at}.properties[spec].x-kubernetes-validations[2].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"1", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string`,
    ]);
  });
  it('refuses optionalOldSelf on a rule without oldSelf', () => {
    const errs = validateSchemaRules(spec({}, [{ rule: 'true', optionalOldSelf: true }]), at);
    assert.deepEqual(rendered(errs), [`${at}.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`]);
  });
});

describe('CRD rules: cost bound (R11.126)', () => {
  it('refuses a rule whose work grows past the per-call limit and stops evaluating', () => {
    const schema = spec({ items: { type: 'array', items: { type: 'string' } } }, [{ rule: 'self.items.all(x, self.items.all(y, x == y || x != y))' }, { rule: 'false' }]);
    const items = Array.from({ length: 2000 }, (_, i) => `i${i}`);
    assert.deepEqual(run(schema, { spec: { items } }), [
      "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.items.all(x, self.items.all(y, x == y || x != y))",
    ]);
    assert.deepEqual(run(schema, { spec: { items: items.slice(0, 50) } }), ['spec: Invalid value: "object": failed rule: false']);
  });
});
