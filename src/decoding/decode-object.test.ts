import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definitionRef, type Schema } from '../openapi/schema.js';
import { DEPLOYMENT_SCHEMA, MINI_DEFINITIONS, SECRET_SCHEMA } from '../patch/fixtures/mini-definitions.js';
import { decodeTypedObject, type FieldValidation, unknownFieldPaths } from './decode-object.js';
import { DecodeError } from './errors.js';

const DEPLOYMENT = { kind: 'Deployment', version: 'v1' };
const PREFIX = 'Deployment in version "v1" cannot be handled as a Deployment: ';

function deployment(extra: { metadata?: object; spec?: object; container?: object } = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' }, ...extra.metadata },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [{ name: 'app', image: 'nginx', ...extra.container }] } },
      ...extra.spec,
    },
  };
}

function decode(obj: unknown, mode: FieldValidation = 'Strict') {
  return decodeTypedObject(obj, DEPLOYMENT_SCHEMA, MINI_DEFINITIONS, mode, DEPLOYMENT);
}

function decodeError(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DecodeError, `expected a DecodeError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected decoding to fail');
}

describe('decodeTypedObject: unknown fields per fieldValidation', () => {
  const withUnknown = deployment({ metadata: { colour: 'red' }, spec: { foo: 1 }, container: { imagePullPolicyy: 'Always' } });
  // Document order, as the decoder meets them (spec.foo comes after spec.template in this body).
  const expectedPaths = ['metadata.colour', 'spec.template.spec.containers[0].imagePullPolicyy', 'spec.foo'];
  const cleaned = deployment();

  it('Strict rejects with every unknown field listed (400 BadRequest)', () => {
    const err = decodeError(() => decode(withUnknown, 'Strict'));
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    const detail = `strict decoding error: ${expectedPaths.map((p) => `unknown field "${p}"`).join(', ')}`;
    assert.equal(err.message, PREFIX + detail);
    assert.equal(err.detail, detail);
    assert.equal(err.unknownFieldsOnly, true);
  });

  it('Warn drops the fields and returns one warning per field', () => {
    const result = decode(withUnknown, 'Warn');
    assert.deepEqual(
      result.warnings,
      expectedPaths.map((p) => `unknown field "${p}"`),
    );
    assert.deepEqual(result.object, cleaned);
  });

  it('Ignore drops the fields silently', () => {
    const result = decode(withUnknown, 'Ignore');
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.object, cleaned);
  });

  it('a clean object decodes unchanged in Strict mode', () => {
    assert.deepEqual(decode(deployment(), 'Strict'), { object: deployment(), warnings: [] });
  });

  it('a "__proto__" key is an unknown field like any other, not a lookup on the prototype', () => {
    const obj = JSON.parse('{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","__proto__":{"x":1}}}') as unknown;
    assert.deepEqual(unknownFieldPaths(obj, DEPLOYMENT_SCHEMA, MINI_DEFINITIONS), ['metadata.__proto__']);
    const result = decode(obj, 'Warn');
    assert.deepEqual(result.warnings, ['unknown field "metadata.__proto__"']);
    assert.equal(Object.hasOwn(result.object.metadata as object, '__proto__'), false);
  });

  it('follows a definition that is replaced between decodings (a changed custom resource schema)', () => {
    const definitions: Record<string, Schema> = { 'com.example.v1.Widget': { type: 'object', properties: { size: { type: 'string' } } } };
    const widget = { size: 'L', colour: 'red' };
    const decodeWidget = () => decodeTypedObject(widget, definitionRef('com.example.v1.Widget'), definitions, 'Warn', { kind: 'Widget', version: 'v1' });
    assert.deepEqual(decodeWidget().warnings, ['unknown field "colour"']);
    definitions['com.example.v1.Widget'] = { type: 'object', properties: { size: { type: 'string' }, colour: { type: 'string' } } };
    assert.deepEqual(decodeWidget(), { object: widget, warnings: [] });
  });

  it('unknownFieldPaths lists the same paths', () => {
    assert.deepEqual(unknownFieldPaths(withUnknown, DEPLOYMENT_SCHEMA, MINI_DEFINITIONS), expectedPaths);
  });

  it('preserve-unknown-fields subtrees and apiVersion/kind are kept', () => {
    const obj = deployment({ spec: { config: { anything: { goes: [1, null] } } } });
    assert.deepEqual(decode(obj, 'Strict').object, obj);
  });

  it('the message names the kind and version the body declares', () => {
    const obj = { ...deployment({ spec: { foo: 1 } }), apiVersion: 'apps/v1beta9' };
    assert.match(decodeError(() => decode(obj)).message, /^Deployment in version "v1beta9" cannot be handled as a Deployment: /);
  });
});

describe('decodeTypedObject: nulls', () => {
  it('null fields are left unset (metadata.labels: null means no labels)', () => {
    const obj = deployment({ metadata: { labels: null, annotations: null }, spec: { replicas: null, paused: null } });
    const { object } = decode(obj);
    assert.deepEqual(object.metadata, { name: 'web' });
    assert.equal('replicas' in (object.spec as object), false);
  });

  it('a null map value becomes the element zero value', () => {
    const { object } = decode(deployment({ metadata: { labels: { app: null } } }));
    assert.deepEqual((object.metadata as { labels: unknown }).labels, { app: '' });
  });
});

describe('decodeTypedObject: type mismatches are 400 with Go decoding messages', () => {
  const cases: { name: string; obj: unknown; detail: string }[] = [
    {
      name: 'string for an int32',
      obj: deployment({ spec: { replicas: '3' } }),
      detail: 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    },
    {
      name: 'a fraction for an int32',
      obj: deployment({ spec: { replicas: 1.5 } }),
      detail: 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    },
    {
      name: 'an int32 overflow',
      obj: deployment({ spec: { replicas: 3000000000 } }),
      detail: 'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    },
    {
      name: 'a number for a string',
      obj: deployment({ metadata: { name: 5 } }),
      detail: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    },
    {
      name: 'a number as a label value',
      obj: deployment({ metadata: { labels: { app: 1 } } }),
      detail: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    },
    {
      name: 'a string for a bool',
      obj: deployment({ spec: { paused: 'true' } }),
      detail: 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
    },
    {
      name: 'a string for a struct',
      obj: deployment({ spec: { template: 'x' } }),
      detail: 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec',
    },
    {
      name: 'an object for a list',
      obj: deployment({ spec: { template: { spec: { containers: { name: 'a' } } } } }),
      detail: 'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    },
    {
      name: 'a string as a list element',
      obj: deployment({ spec: { template: { spec: { containers: ['a'] } } } }),
      detail: 'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container',
    },
    {
      name: 'a bool for an IntOrString',
      obj: deployment({ spec: { strategy: { rollingUpdate: { maxSurge: true } } } }),
      detail: 'json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32',
    },
    {
      name: 'a malformed quantity',
      obj: deployment({ container: { resources: { limits: { cpu: '1 core' } } } }),
      detail: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    },
    {
      name: 'a malformed timestamp',
      obj: deployment({ metadata: { creationTimestamp: '2024-13-01T00:00:00Z' } }),
      detail: 'parsing time "2024-13-01T00:00:00Z": month out of range',
    },
    {
      name: 'a timestamp in the wrong layout',
      obj: deployment({ metadata: { creationTimestamp: '2024/01/01' } }),
      detail: 'parsing time "2024/01/01" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/01" as "-"',
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const err = decodeError(() => decode(c.obj, 'Ignore'));
      assert.equal(err.code, 400);
      assert.equal(err.message, PREFIX + c.detail);
      assert.equal(err.unknownFieldsOnly, false);
    });
  }

  it('a type error wins over unknown fields, even in Strict mode', () => {
    const err = decodeError(() => decode(deployment({ spec: { foo: 1, replicas: 'x' } }), 'Strict'));
    assert.equal(err.detail, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('IntOrString accepts strings and integers; quantities accept strings and numbers', () => {
    const obj = deployment({
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } } },
      container: { resources: { limits: { cpu: 0.5, memory: '128Mi' } } },
    });
    const stored = deployment({
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } } },
      container: { resources: { limits: { cpu: '500m', memory: '128Mi' } } },
    });
    assert.deepEqual(decode(obj).object, stored);
  });

  it('quantities are kept in their canonical form, as resource.Quantity serializes them', () => {
    const written = ['1000m', '0.5', '1024Mi', '1.5Gi', '1000Mi', '129e6', ' 1 ', '+2'];
    const stored = ['1', '500m', '1Gi', '1536Mi', '1000Mi', '129e6', '1', '2'];
    const limits = (values: string[]) => Object.fromEntries(values.map((v, i) => [`example.com/r${i}`, v]));
    const decoded = decode(deployment({ container: { resources: { limits: limits(written) } } })).object;
    assert.deepEqual(decoded, deployment({ container: { resources: { limits: limits(stored) } } }));
  });
});

describe('decodeTypedObject: []byte values are base64', () => {
  const secret = (data: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data });
  const decodeSecret = (obj: unknown) =>
    decodeTypedObject(obj, SECRET_SCHEMA, MINI_DEFINITIONS, 'Strict', { kind: 'Secret', version: 'v1' });

  it('accepts padded standard base64', () => {
    assert.deepEqual(decodeSecret(secret({ a: 'aGVsbG8=', b: '' })).object, secret({ a: 'aGVsbG8=', b: '' }));
  });

  const bad: [string, number][] = [
    ['not*base64', 3],
    ['aGVsbG8', 4],
    ['aGVsbG8=x', 8],
  ];
  for (const [value, offset] of bad) {
    it(`rejects ${JSON.stringify(value)} at byte ${offset}`, () => {
      const err = decodeError(() => decodeSecret(secret({ a: value })));
      assert.equal(err.message, `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${offset}`);
    });
  }
});
