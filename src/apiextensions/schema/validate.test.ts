import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rendered } from './test-helpers.js';
import type { GroupVersionKind, JSONSchemaProps } from '../../api/json-schema-props.js';
import { validateCustomResourceSchema, validateInstance, validateTypeMeta } from './validate.js';

const GVK: GroupVersionKind = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };

function withSpec(properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties, ...extra } } };
}

describe('validateCustomResourceSchema: value checks', () => {
  const cases: { name: string; schema: JSONSchemaProps; spec: unknown; want: string[] }[] = [
    {
      name: 'type mismatch',
      schema: withSpec({ replicas: { type: 'integer' } }),
      spec: { replicas: 'three' },
      want: ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
    },
    {
      name: 'a float for an integer, an integer for a number is fine',
      schema: withSpec({ i: { type: 'integer' }, n: { type: 'number' } }),
      spec: { i: 1.5, n: 2 },
      want: ['spec.i: Invalid value: "number": spec.i in body must be of type integer: "number"'],
    },
    {
      name: 'null for a non-nullable field; nullable accepts it',
      schema: withSpec({ a: { type: 'object' }, b: { type: 'string', nullable: true } }),
      spec: { a: null, b: null },
      want: ['spec.a: Invalid value: "null": spec.a in body must be of type object: "null"'],
    },
    {
      name: 'required fields',
      schema: withSpec({ a: { type: 'string' } }, { required: ['a', 'b'] }),
      spec: {},
      want: ['spec.a: Required value', 'spec.b: Required value'],
    },
    {
      name: 'enum',
      schema: withSpec({ mode: { type: 'string', enum: ['a', 'b'] }, n: { type: 'integer', enum: [1, 2] } }),
      spec: { mode: 'x', n: 3 },
      want: ['spec.mode: Unsupported value: "x": supported values: "a", "b"', 'spec.n: Unsupported value: 3: supported values: "1", "2"'],
    },
    {
      name: 'minimum, maximum and their exclusive forms',
      schema: withSpec({
        a: { type: 'integer', minimum: 1 },
        b: { type: 'integer', maximum: 10 },
        c: { type: 'number', minimum: 0, exclusiveMinimum: true },
        d: { type: 'number', maximum: 1.5, exclusiveMaximum: true },
      }),
      spec: { a: 0, b: 11, c: 0, d: 1.5 },
      want: [
        'spec.a: Invalid value: 0: spec.a in body should be greater than or equal to 1',
        'spec.b: Invalid value: 11: spec.b in body should be less than or equal to 10',
        'spec.c: Invalid value: 0: spec.c in body should be greater than 0',
        'spec.d: Invalid value: 1.5: spec.d in body should be less than 1.5',
      ],
    },
    {
      name: 'multipleOf',
      schema: withSpec({ a: { type: 'integer', multipleOf: 5 }, b: { type: 'number', multipleOf: 0.5 } }),
      spec: { a: 7, b: 0.75 },
      want: [
        'spec.a: Invalid value: 7: spec.a in body should be a multiple of 5',
        'spec.b: Invalid value: 0.75: spec.b in body should be a multiple of 0.5',
      ],
    },
    {
      name: 'string length and pattern, first failure only',
      schema: withSpec({
        a: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
        b: { type: 'string', minLength: 3 },
        c: { type: 'string', pattern: '^[a-z]+$' },
      }),
      spec: { a: 'ABCDE', b: 'ab', c: 'AB' },
      want: [
        'spec.a: Too long: may not be more than 3 bytes',
        'spec.b: Invalid value: "ab": spec.b in body should be at least 3 chars long',
        'spec.c: Invalid value: "AB": spec.c in body should match \'^[a-z]+$\'',
      ],
    },
    {
      name: 'item counts and property counts',
      schema: withSpec({
        a: { type: 'array', items: { type: 'string' }, minItems: 2 },
        b: { type: 'array', items: { type: 'string' }, maxItems: 1 },
        c: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 2 },
        d: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 },
      }),
      spec: { a: ['x'], b: ['x', 'y'], c: { k: 'v' }, d: { k: 'v', l: 'w' } },
      want: [
        'spec.a: Invalid value: 1: spec.a in body should have at least 2 items',
        'spec.b: Too many: 2: must have at most 1 item',
        'spec.c: Invalid value: 1: spec.c in body should have at least 2 properties',
        'spec.d: Too many: 2: must have at most 1 item',
      ],
    },
    {
      name: 'array items and additionalProperties values are validated with their paths',
      schema: withSpec({
        list: { type: 'array', items: { type: 'integer' } },
        map: { type: 'object', additionalProperties: { type: 'integer' } },
      }),
      spec: { list: [1, 'x'], map: { k: true } },
      want: [
        'spec.list[1]: Invalid value: "string": spec.list[1] in body must be of type integer: "string"',
        'spec.map.k: Invalid value: "boolean": spec.map.k in body must be of type integer: "boolean"',
      ],
    },
    {
      name: 'int-or-string',
      schema: withSpec({ port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }),
      spec: { port: true },
      want: [
        'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
        '<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)',
        'spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"',
      ],
    },
    {
      name: 'oneOf, allOf and not as value validations',
      schema: withSpec(
        { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'integer', not: { enum: [0] } } },
        { oneOf: [{ required: ['a'] }, { required: ['b'] }], allOf: [{ required: ['c'] }] },
      ),
      spec: { a: 'x', b: 'y', c: 0 },
      want: [
        '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives',
        '<nil>: Invalid value: "": "spec.c" must not validate the schema (not)',
      ],
    },
    {
      name: 'formats',
      schema: withSpec({
        email: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
        ip: { type: 'string', format: 'ipv4' },
        unknown: { type: 'string', format: 'shoe-size' },
        n: { type: 'integer', format: 'int32' },
      }),
      spec: { email: 'abc', when: 'yesterday', id: '123', ip: '1.2.3', unknown: 'x', n: 5 },
      want: [
        'spec.email: Invalid value: "abc": spec.email in body must be of type email: "abc"',
        'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
        'spec.id: Invalid value: "123": spec.id in body must be of type uuid: "123"',
        'spec.ip: Invalid value: "1.2.3": spec.ip in body must be of type ipv4: "1.2.3"',
      ],
    },
    {
      // kube-openapi quotes the value with %q: Go's strconv.Quote, whose escapes differ from JSON's.
      name: 'a format failure quotes the value as Go does',
      schema: withSpec({ email: { type: 'string', format: 'email' } }),
      spec: { email: 'a\u0000\u00a0\u0007b' },
      want: ['spec.email: Invalid value: "a\\x00\\u00a0\\ab": spec.email in body must be of type email: "a\\x00\\u00a0\\ab"'],
    },
    {
      name: 'list-type set and map uniqueness',
      schema: withSpec({
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
      }),
      spec: {
        tags: ['a', 'b', 'a', 'a'],
        ports: [
          { name: 'http', port: 80 },
          { name: 'http', port: 81 },
        ],
      },
      want: ['spec.tags[2]: Duplicate value: "a"', 'spec.ports[1]: Duplicate value: {"name":"http"}'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec: c.spec };
      assert.deepEqual(rendered(validateCustomResourceSchema(obj, c.schema)), c.want);
    });
  }
});

describe('validateCustomResourceSchema: embedded resources', () => {
  const schema = withSpec({
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
  });
  const cases: { name: string; template: unknown; want: string[] }[] = [
    {
      name: 'apiVersion and kind are required',
      template: { metadata: {} },
      want: ['spec.template.apiVersion: Required value', 'spec.template.kind: Required value'],
    },
    {
      name: 'apiVersion and kind shapes',
      template: { apiVersion: 'a/b/c', kind: 'Bad_Kind' },
      want: [
        'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        "spec.template.kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'metadata name and namespace',
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', namespace: 'Bad' } },
      want: [
        'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
        "spec.template.metadata.namespace: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    { name: 'a valid embedded object', template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} }, want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(rendered(validateCustomResourceSchema({ spec: { template: c.template } }, schema)), c.want);
    });
  }
});

describe('validateInstance and validateTypeMeta', () => {
  const schema = withSpec({ replicas: { type: 'integer' } });
  it('stops at a wrong kind or apiVersion', () => {
    const obj = { apiVersion: 'stable.example.com/v2', kind: 'Other', spec: { replicas: 'x' } };
    assert.deepEqual(rendered(validateInstance(obj, schema, GVK)), [
      'kind: Invalid value: "Other": must be CronTab',
      'apiVersion: Invalid value: "stable.example.com/v2": must be stable.example.com/v1',
    ]);
  });
  it('reports missing type meta as empty strings', () => {
    assert.deepEqual(rendered(validateTypeMeta({}, GVK)), [
      'kind: Invalid value: "": must be CronTab',
      'apiVersion: Invalid value: "": must be stable.example.com/v1',
    ]);
  });
  it('reports root-level schema errors at the nil path, as apimachinery prints it', () => {
    const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab' };
    assert.deepEqual(rendered(validateCustomResourceSchema(obj, { type: 'object', minProperties: 3 })), [
      '<nil>: Invalid value: 2:  in body should have at least 3 properties',
    ]);
  });
  it('validates the schema once type meta is right', () => {
    const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', spec: { replicas: 'x' } };
    assert.deepEqual(rendered(validateInstance(obj, schema, GVK)), [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });
});
