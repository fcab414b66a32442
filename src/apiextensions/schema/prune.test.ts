import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prune, pruneNonNullableNulls } from './prune.js';
import type { JSONSchemaProps } from '../../api/json-schema-props.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        raw: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { y: { type: 'string' } } } },
        },
        nested: { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } } },
      },
    },
  },
};

describe('prune', () => {
  const cases: { name: string; obj: unknown; schema?: JSONSchemaProps; root?: boolean; want: unknown; pruned: string[] }[] = [
    {
      name: 'root keeps apiVersion, kind and all of metadata; unknown top-level and spec fields go',
      obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n', anything: 1 }, spec: { replicas: 1, foo: 2 }, status: {} },
      want: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n', anything: 1 }, spec: { replicas: 1 } },
      pruned: ['spec.foo', 'status'],
    },
    {
      name: 'array items and additionalProperties values are pruned by their schema',
      obj: { spec: { items: [{ a: 'x', b: 1 }, { c: 2 }], labels: { k: 'v' } } },
      want: { spec: { items: [{ a: 'x' }, {}], labels: { k: 'v' } } },
      pruned: ['spec.items[0].b', 'spec.items[1].c'],
    },
    {
      name: 'preserve-unknown-fields keeps unknown fields but prunes inside specified ones',
      obj: { spec: { raw: { free: { deep: true }, known: { x: 'a', z: 'b' } } } },
      want: { spec: { raw: { free: { deep: true }, known: { x: 'a' } } } },
      pruned: ['spec.raw.known.z'],
    },
    {
      name: 'an embedded resource keeps its apiVersion, kind and metadata',
      obj: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } }, spec: { y: 'a', z: 1 }, other: 1 } } },
      want: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } }, spec: { y: 'a' } } } },
      pruned: ['spec.template.other', 'spec.template.spec.z'],
    },
    {
      name: 'metadata below the root is an ordinary field',
      obj: { spec: { nested: { metadata: { name: 'a', extra: 1 } } } },
      want: { spec: { nested: { metadata: { name: 'a' } } } },
      pruned: ['spec.nested.metadata.extra'],
    },
    {
      name: 'not a resource root: apiVersion and kind are pruned like any field',
      obj: { apiVersion: 'v1', spec: {} },
      root: false,
      want: { spec: {} },
      pruned: ['apiVersion'],
    },
    {
      name: 'preserve-unknown-fields at the root keeps everything',
      obj: { spec: { any: 1 }, extra: [1] },
      schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      want: { spec: { any: 1 }, extra: [1] },
      pruned: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = structuredClone(c.obj);
      const result = prune(obj, c.schema ?? schema, c.root ?? true);
      assert.deepEqual(obj, c.want);
      assert.deepEqual(result.pruned, c.pruned);
    });
  }
});

describe('pruneNonNullableNulls', () => {
  it('drops nulls of non-nullable fields without a default and keeps the others', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'string', nullable: true },
        c: { type: 'string', default: 'x' },
        m: { type: 'object', additionalProperties: { type: 'string' } },
        l: { type: 'array', items: { type: 'object', properties: { d: { type: 'string' } } } },
      },
    };
    const obj = { a: null, b: null, c: null, unknown: null, m: { k: null }, l: [{ d: null }, null] };
    pruneNonNullableNulls(obj, s);
    assert.deepEqual(obj, { b: null, c: null, unknown: null, m: {}, l: [{}, null] });
  });
});
