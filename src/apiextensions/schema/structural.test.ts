import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateDefaults, validateStructuralSchema } from './structural.js';
import { rendered } from './test-helpers.js';
import type { JSONSchemaProps } from '../../api/json-schema-props.js';

const P = 'spec.versions[0].schema.openAPIV3Schema';

function rootWith(spec: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { spec } };
}

describe('validateStructuralSchema', () => {
  const cases: { name: string; schema: JSONSchemaProps; options?: { statusSubresource?: boolean }; want: string[] }[] = [
    {
      name: 'a valid structural schema',
      schema: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object' },
          spec: {
            type: 'object',
            required: ['replicas'],
            properties: {
              replicas: { type: 'integer', minimum: 0, default: 1 },
              port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
              raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              labels: { type: 'object', additionalProperties: { type: 'string' } },
              template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
              tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
            },
          },
        },
      },
      want: [],
    },
    {
      name: 'missing type of a field',
      schema: rootWith({ properties: { a: { type: 'string' } } }),
      want: [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`],
    },
    {
      name: 'missing type at the root and of array items',
      schema: { properties: { list: { type: 'array', items: {} } } },
      want: [
        `${P}.properties[list].items.type: Required value: must not be empty for specified array items`,
        `${P}.type: Required value: must not be empty at the root`,
      ],
    },
    {
      name: 'array without items',
      schema: rootWith({ type: 'array' }),
      want: [`${P}.properties[spec].items: Required value: must be specified`],
    },
    {
      name: 'non-object root',
      schema: { type: 'string' },
      want: [`${P}.type: Invalid value: "string": must be object at the root`],
    },
    {
      name: 'additionalProperties at the root and beside properties',
      schema: { type: 'object', additionalProperties: { type: 'string' }, properties: { spec: { type: 'object' } } },
      want: [
        `${P}.additionalProperties: Forbidden: must not be used at the root`,
        `${P}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      ],
    },
    {
      name: 'additionalProperties: false beside properties',
      schema: rootWith({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }),
      want: [`${P}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`],
    },
    {
      name: 'metadata restricted beyond name and generateName',
      schema: { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } },
      want: [
        `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    },
    {
      name: 'metadata restricting only name',
      schema: { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } } },
      want: [],
    },
    {
      name: 'metadata of the wrong type and kind not a string',
      schema: { type: 'object', properties: { metadata: { type: 'string' }, kind: { type: 'integer' } } },
      want: [
        `${P}.properties[kind].type: Invalid value: "integer": must be string`,
        `${P}.properties[metadata].type: Invalid value: "string": must be object`,
      ],
    },
    {
      name: 'metadata in a nested value validation',
      schema: { type: 'object', properties: { spec: { type: 'object' } }, anyOf: [{ properties: { metadata: {} } }] },
      want: [
        `${P}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
        `${P}.properties[metadata]: Required value: because it is defined in ${P}.anyOf[0].properties[metadata]`,
      ],
    },
    {
      name: 'type and structure inside anyOf',
      schema: rootWith({ type: 'object', anyOf: [{ type: 'object', description: 'x', nullable: true }] }),
      want: [
        `${P}.properties[spec].anyOf[0].description: Forbidden: must be empty to be structural`,
        `${P}.properties[spec].anyOf[0].nullable: Forbidden: must be false to be structural`,
        `${P}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
      ],
    },
    {
      name: 'value validation at the root naming an unspecified field',
      schema: {
        type: 'object',
        properties: { a: { type: 'string' } },
        oneOf: [{ required: ['a'] }, { properties: { b: { minLength: 1 } } }],
      },
      want: [`${P}.properties[b]: Required value: because it is defined in ${P}.oneOf[1].properties[b]`],
    },
    {
      // Kubernetes checks completeness from the root's value validations only.
      name: 'value validation below the root naming an unspecified field',
      schema: rootWith({ type: 'object', properties: { a: { type: 'string' } }, oneOf: [{ properties: { b: { minLength: 1 } } }] }),
      want: [],
    },
    {
      name: 'int-or-string with preserve-unknown-fields',
      schema: rootWith({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }),
      want: [
        `${P}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      ],
    },
    {
      name: 'embedded resource without object type or properties',
      schema: rootWith({ 'x-kubernetes-embedded-resource': true }),
      want: [
        `${P}.properties[spec].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
        `${P}.properties[spec].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
      ],
    },
    {
      name: 'forbidden keywords',
      schema: rootWith({
        type: 'object',
        $ref: '#/definitions/x',
        definitions: { x: { type: 'string' } },
        dependencies: { a: ['b'] },
        uniqueItems: true,
      }),
      want: [
        `${P}.properties[spec].definitions: Forbidden: definitions is not supported`,
        `${P}.properties[spec].dependencies: Forbidden: dependencies is not supported`,
        `${P}.properties[spec].$ref: Forbidden: $ref is not supported`,
        `${P}.properties[spec].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      ],
    },
    {
      name: 'unknown and null types',
      schema: rootWith({ type: 'object', properties: { a: { type: 'float' }, b: { type: 'null' } } }),
      want: [
        `${P}.properties[spec].properties[a].type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"`,
        `${P}.properties[spec].properties[b].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
        `${P}.properties[spec].properties[b].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
      ],
    },
    {
      name: 'items as an array',
      schema: rootWith({ type: 'array', items: [{ type: 'string' }] }),
      want: [`${P}.properties[spec].items: Forbidden: items must be a schema object and not an array`],
    },
    {
      name: '$schema alone is reported by the structural conversion',
      schema: { type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' },
      want: [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`],
    },
    {
      name: 'defaults in top-level metadata',
      schema: { type: 'object', properties: { metadata: { type: 'object', default: { name: 'x' } } } },
      want: [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
    },
    {
      name: 'nullable root',
      schema: { type: 'object', nullable: true },
      want: [`${P}.nullable: Forbidden: nullable cannot be true at the root`],
    },
    {
      name: 'list-type on a non-array and unknown map-type',
      schema: rootWith({ type: 'object', 'x-kubernetes-list-type': 'set', 'x-kubernetes-map-type': 'loose' }),
      want: [
        `${P}.properties[spec].x-kubernetes-map-type: Unsupported value: "loose": supported values: "atomic", "granular"`,
        `${P}.properties[spec].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
      ],
    },
    {
      name: 'list-map-keys without list-type map',
      schema: rootWith({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['name'] }),
      want: [`${P}.properties[spec].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`],
    },
    {
      name: 'map list with a missing, an object and an optional key',
      schema: rootWith({
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'sel', 'missing'],
        items: { type: 'object', properties: { name: { type: 'string' }, sel: { type: 'object' } } },
      }),
      want: [
        `${P}.properties[spec].items.properties[sel].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
        `${P}.properties[spec].x-kubernetes-list-map-keys: Invalid value: []string{"name", "sel", "missing"}: entries must all be names of item properties`,
        `${P}.properties[spec].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
        `${P}.properties[spec].items.properties[sel].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      ],
    },
    {
      name: 'set of granular objects',
      schema: rootWith({
        type: 'array',
        'x-kubernetes-list-type': 'set',
        items: { type: 'object', properties: { a: { type: 'string' } } },
      }),
      want: [
        `${P}.properties[spec].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
      ],
    },
    {
      name: 'x-kubernetes-validations shape',
      schema: rootWith({
        type: 'object',
        'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'self.a\n&& self.b' }, { rule: 'true', reason: 'Nope' }],
      }),
      want: [
        `${P}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
        `${P}.properties[spec].x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks`,
        `${P}.properties[spec].x-kubernetes-validations[2].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      ],
    },
    {
      name: 'status subresource with anyOf at the root',
      schema: { type: 'object', anyOf: [{ required: ['spec'] }], properties: { spec: { type: 'object' } } },
      options: { statusSubresource: true },
      want: [
        `${P}: Invalid value: {"type":"object","anyOf":[{"required":["spec"]}],"properties":{"spec":{"type":"object"}}}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(rendered(validateStructuralSchema(c.schema, P, c.options)), c.want);
    });
  }
});

describe('validateDefaults', () => {
  const cases: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
    {
      name: 'a default of the wrong type (kube-openapi names the root of the value "")',
      schema: rootWith({ type: 'object', properties: { r: { type: 'integer', default: 'x' } } }),
      want: [`${P}.properties[spec].properties[r].default: Invalid value: "string":  in body must be of type integer: "string"`],
    },
    {
      name: 'a default with unknown fields',
      schema: rootWith({
        type: 'object',
        properties: { o: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } } },
      }),
      want: [`${P}.properties[spec].properties[o].default: Invalid value: {"a":"x","b":1}: must not have unknown fields`],
    },
    {
      name: 'a nested value of an object default that breaks its schema',
      schema: rootWith({
        type: 'object',
        properties: { o: { type: 'object', properties: { n: { type: 'integer', maximum: 3 } }, default: { n: 5 } } },
      }),
      want: [`${P}.properties[spec].properties[o].default.n: Invalid value: 5: n in body should be less than or equal to 3`],
    },
    {
      name: 'a default violating its format',
      schema: rootWith({ type: 'object', properties: { mail: { type: 'string', format: 'email', default: 'abc' } } }),
      want: [`${P}.properties[spec].properties[mail].default: Invalid value: "abc":  in body must be of type email: "abc"`],
    },
    {
      name: 'defaults inside array items are checked too',
      schema: rootWith({ type: 'array', items: { type: 'string', enum: ['a'], default: 'b' } }),
      want: [`${P}.properties[spec].items.default: Unsupported value: "b": supported values: "a"`],
    },
    {
      name: 'valid defaults',
      schema: rootWith({
        type: 'object',
        default: {},
        properties: { n: { type: 'integer', default: 3 }, s: { type: 'string', default: 'x' } },
      }),
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(rendered(validateDefaults(c.schema, P)), c.want);
    });
  }
});
