import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_RESOURCES } from '../kinds/index.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { buildOpenApiV2 } from '../openapi/v2.js';
import { encodeOpenApiV2Document } from './openapi-v2-document.js';
import { ProtoReader, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT } from './wire.js';

/** A schema-less view of one message: field number → the values it holds, in order (bytes for length-delimited ones). */
type Fields = Map<number, (bigint | number | Uint8Array)[]>;

function fields(bytes: Uint8Array): Fields {
  const reader = new ProtoReader(bytes);
  const out: Fields = new Map();
  while (!reader.done()) {
    const { field, wireType } = reader.readKey('test');
    const value = wireType === WIRE_VARINT ? reader.readVarint() : wireType === WIRE_LEN ? reader.readBytes() : wireType === WIRE_FIXED64 ? reader.readDouble() : undefined;
    assert.notEqual(value, undefined, `unexpected wire type ${wireType} for field ${field}`);
    out.set(field, [...(out.get(field) ?? []), value as bigint]);
  }
  return out;
}
const text = (v: unknown): string => new TextDecoder().decode(v as Uint8Array);
const one = (m: Fields, field: number): Uint8Array => {
  const values = m.get(field) ?? [];
  assert.equal(values.length, 1, `field ${field} should occur once`);
  return values[0] as Uint8Array;
};
const all = (m: Fields, field: number): Uint8Array[] => (m.get(field) ?? []) as Uint8Array[];
/** Named* messages (name = 1, value = 2) as [name, value bytes] pairs. */
const named = (m: Fields, field: number): [string, Uint8Array][] =>
  all(m, field).map((pair) => {
    const p = fields(pair);
    return [text(one(p, 1)), (p.get(2)?.[0] ?? new Uint8Array()) as Uint8Array];
  });
/** `Any { string yaml = 2 }`: the value Cascade writes as JSON text (the flow form of YAML). */
const anyValue = (bytes: Uint8Array): unknown => JSON.parse(text(one(fields(bytes), 2)));

// gnostic's Schema field numbers, written out here independently of the encoder's tables.
const SCHEMA_STRINGS: Record<number, string> = { 1: '$ref', 2: 'format', 3: 'title', 4: 'description', 13: 'pattern', 26: 'discriminator' };
const SCHEMA_INTS: Record<number, string> = { 11: 'maxLength', 12: 'minLength', 14: 'maxItems', 15: 'minItems', 17: 'maxProperties', 18: 'minProperties' };
const SCHEMA_BOOLS: Record<number, string> = { 8: 'exclusiveMaximum', 10: 'exclusiveMinimum', 16: 'uniqueItems', 27: 'readOnly' };
const SCHEMA_DOUBLES: Record<number, string> = { 6: 'multipleOf', 7: 'maximum', 9: 'minimum' };

/** Decodes an openapi.v2.Schema message back to its JSON form. */
function decodeSchema(bytes: Uint8Array): Record<string, unknown> {
  const m = fields(bytes);
  const out: Record<string, unknown> = {};
  for (const [field, values] of m) {
    const first = values[0];
    if (SCHEMA_STRINGS[field] !== undefined) out[SCHEMA_STRINGS[field]] = text(first);
    else if (SCHEMA_INTS[field] !== undefined) out[SCHEMA_INTS[field]] = Number(first);
    else if (SCHEMA_BOOLS[field] !== undefined) out[SCHEMA_BOOLS[field]] = first === 1n;
    else if (SCHEMA_DOUBLES[field] !== undefined) out[SCHEMA_DOUBLES[field]] = first;
    else if (field === 5) out.default = anyValue(first as Uint8Array);
    else if (field === 19) out.required = values.map(text);
    else if (field === 20) out.enum = values.map((v) => anyValue(v as Uint8Array));
    else if (field === 21) {
      const item = fields(first as Uint8Array);
      out.additionalProperties = item.has(2) ? item.get(2)?.[0] === 1n : decodeSchema(one(item, 1));
    } else if (field === 22) {
      const types = all(fields(first as Uint8Array), 1).map(text);
      out.type = types.length === 1 ? types[0] : types;
    } else if (field === 23) {
      const items = all(fields(first as Uint8Array), 1).map(decodeSchema);
      out.items = items.length === 1 ? items[0] : items;
    } else if (field === 24) out.allOf = values.map((v) => decodeSchema(v as Uint8Array));
    else if (field === 25) out.properties = Object.fromEntries(named(fields(first as Uint8Array), 1).map(([k, v]) => [k, decodeSchema(v)]));
    else if (field === 30) out.example = anyValue(first as Uint8Array);
    else if (field === 31) for (const [k, v] of named(m, 31)) out[k] = anyValue(v);
    else assert.fail(`unexpected Schema field ${field}`);
  }
  return out;
}

const sortDeep = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortDeep)
    : typeof v === 'object' && v !== null
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
        )
      : v;

describe('encodeOpenApiV2Document (gnostic openapi.v2.Document)', () => {
  const json = JSON.parse(
    JSON.stringify(buildOpenApiV2({ resources: BUILTIN_RESOURCES, definitions: BUILTIN_DEFINITIONS, version: 'v1.32.0' })),
  ) as { definitions: Record<string, unknown>; paths: Record<string, Record<string, unknown>> };
  const doc = fields(encodeOpenApiV2Document(json));

  it('writes swagger (1) and info (2) with title and version', () => {
    assert.equal(text(one(doc, 1)), '2.0');
    const info = fields(one(doc, 2));
    assert.equal(text(one(info, 1)), 'Kubernetes');
    assert.equal(text(one(info, 2)), 'v1.32.0');
  });

  it('decodes every definition (9) back to the JSON schema it was built from, in the same order', () => {
    const decoded = named(fields(one(doc, 9)), 1);
    assert.deepEqual(
      decoded.map(([name]) => name),
      Object.keys(json.definitions),
    );
    for (const [name, schema] of decoded) assert.deepEqual(sortDeep(decodeSchema(schema)), sortDeep(json.definitions[name]), name);
  });

  it('writes paths (8) with operations, parameters, responses and the Kubernetes extensions', () => {
    const paths = named(fields(one(doc, 8)), 2);
    assert.deepEqual(
      paths.map(([p]) => p),
      Object.keys(json.paths),
    );
    const [, item] = paths.find(([p]) => p === '/api/v1/namespaces/{namespace}/configmaps/{name}') ?? assert.fail('no configmap path');
    const pathItem = fields(item);
    const get = fields(one(pathItem, 2)); // PathItem.get
    assert.equal(text(one(get, 5)), 'readCoreV1NamespacedConfigMap');
    assert.deepEqual(all(get, 1).map(text), ['core_v1']);
    const extensions = Object.fromEntries(named(get, 13).map(([k, v]) => [k, anyValue(v)]));
    assert.deepEqual(extensions, { 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': { group: '', kind: 'ConfigMap', version: 'v1' } });
    // responses (9): NamedResponseValue "200" → ResponseValue.response (1) → Response.schema (2) → SchemaItem.schema (1)
    const [code, value] = named(fields(one(get, 9)), 1)[0] ?? assert.fail('no response');
    assert.equal(code, '200');
    const response = fields(one(fields(value), 1));
    assert.deepEqual(decodeSchema(one(fields(one(response, 2)), 1)), { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' });
    // PathItem.parameters (9): ParametersItem.parameter (1) → Parameter.non_body_parameter (2) → path (4) / query (3)
    const params = all(pathItem, 9).map((p) => fields(one(fields(one(fields(p), 1)), 2)));
    const byName = new Map(
      params.map((p) => {
        const [kind, sub] = [...p.entries()][0] ?? assert.fail('empty NonBodyParameter');
        const s = fields(sub[0] as Uint8Array);
        return [text(one(s, 4)), { kind, required: s.get(1)?.[0] === 1n, in: text(one(s, 2)) }];
      }),
    );
    assert.deepEqual(byName.get('name'), { kind: 4, required: true, in: 'path' });
    assert.deepEqual(byName.get('pretty'), { kind: 3, required: false, in: 'query' });
    // The body parameter of PUT: Parameter.body_parameter (1) → BodyParameter.schema (5)
    const put = fields(one(pathItem, 3));
    const body = all(put, 8)
      .map((p) => fields(one(fields(p), 1)))
      .find((p) => p.has(1));
    const bodyParam = fields(one(body ?? assert.fail('no body parameter'), 1));
    assert.equal(text(one(bodyParam, 3)), 'body');
    assert.deepEqual(decodeSchema(one(bodyParam, 5)), { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' });
  });

  it('writes security (12) and the BearerToken apiKey scheme (13)', () => {
    const [name, scopes] = named(fields(one(doc, 12)), 1)[0] ?? assert.fail('no security requirement');
    assert.equal(name, 'BearerToken');
    assert.deepEqual(all(fields(scopes), 1), []);
    const [schemeName, item] = named(fields(one(doc, 13)), 1)[0] ?? assert.fail('no security definition');
    assert.equal(schemeName, 'BearerToken');
    const apiKey = fields(one(fields(item), 2));
    assert.deepEqual([1, 2, 3, 4].map((f) => text(one(apiKey, f))), ['apiKey', 'authorization', 'header', 'Bearer Token authentication']);
  });

  it('writes additionalProperties false as an explicit oneof member', () => {
    const bytes = encodeOpenApiV2Document({ definitions: { a: { type: 'object', additionalProperties: false, items: [{ type: 'string' }, { type: 'integer' }] } } });
    const [, schema] = named(fields(one(fields(bytes), 9)), 1)[0] ?? assert.fail('no definition');
    assert.deepEqual(decodeSchema(schema), { type: 'object', additionalProperties: false, items: [{ type: 'string' }, { type: 'integer' }] });
  });
});
