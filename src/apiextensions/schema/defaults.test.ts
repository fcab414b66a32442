import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyDefaults } from './defaults.js';
import type { JSONSchemaProps } from '../../api/json-schema-props.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'auto' },
        opt: { type: 'string', nullable: true, default: 'n' },
        ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' } } } },
        env: { type: 'object', additionalProperties: { type: 'object', properties: { value: { type: 'string', default: 'v' } } } },
        nested: {
          type: 'object',
          default: { a: {} },
          properties: { a: { type: 'object', properties: { b: { type: 'integer', default: 2 } } } },
        },
        shared: { type: 'object', properties: { x: { type: 'object', default: { k: [1] } } } },
      },
    },
  },
};

describe('applyDefaults', () => {
  const cases: { name: string; obj: unknown; want: unknown }[] = [
    {
      name: 'a missing object with a default is created and defaulted inside, recursively',
      obj: {},
      want: { spec: { replicas: 1, mode: 'auto', opt: 'n', nested: { a: { b: 2 } } } },
    },
    {
      name: 'present values win; null of a non-nullable field is replaced; null of a nullable one stays',
      obj: { spec: { replicas: 3, mode: null, opt: null } },
      want: { spec: { replicas: 3, mode: 'auto', opt: null, nested: { a: { b: 2 } } } },
    },
    {
      name: 'array items and additionalProperties values are defaulted by their schema',
      obj: { spec: { ports: [{}, { protocol: 'UDP' }], env: { A: {}, B: { value: 'x' } } } },
      want: {
        spec: {
          replicas: 1,
          mode: 'auto',
          opt: 'n',
          nested: { a: { b: 2 } },
          ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }],
          env: { A: { value: 'v' }, B: { value: 'x' } },
        },
      },
    },
    {
      name: 'scalars and unknown shapes are left alone',
      obj: 'text',
      want: 'text',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = structuredClone(c.obj);
      applyDefaults(obj, schema);
      assert.deepEqual(obj, c.want);
    });
  }

  it('copies default values so objects do not share them', () => {
    const a: { spec: { shared: { x?: { k: number[] } } } } = { spec: { shared: {} } };
    const b: { spec: { shared: { x?: { k: number[] } } } } = { spec: { shared: {} } };
    applyDefaults(a, schema);
    applyDefaults(b, schema);
    a.spec.shared.x?.k.push(2);
    assert.deepEqual(b.spec.shared.x, { k: [1] });
    assert.deepEqual(schema.properties?.spec?.properties?.shared?.properties?.x?.default, { k: [1] });
  });
});
