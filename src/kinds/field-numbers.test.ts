import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_DEFINITIONS } from './definitions.js';
import type { Schema } from '../openapi/schema.js';
import { BUILTIN_RESOURCES } from './index.js';
import { refName } from '../protobuf/field-index.js';
import { wellKnownCodec } from '../protobuf/well-known.js';
import { FIELD_NUMBERS } from './field-numbers.js';

/** Every definition a served kind (or its scale subresource, or a delete) can carry in a request body. */
function reachableDefinitions(): Set<string> {
  const roots = BUILTIN_RESOURCES.map((r) => r.definition);
  roots.push('io.k8s.api.autoscaling.v1.Scale', 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
  const seen = new Set<string>();
  const visitSchema = (schema: Schema): void => {
    const ref = refName(schema);
    if (ref !== undefined) visit(ref);
    if (schema.items !== undefined) visitSchema(schema.items);
    if (typeof schema.additionalProperties === 'object') visitSchema(schema.additionalProperties);
    for (const property of Object.values(schema.properties ?? {})) visitSchema(property);
  };
  const visit = (name: string): void => {
    if (seen.has(name) || wellKnownCodec(name) !== undefined) return;
    seen.add(name);
    const schema = BUILTIN_DEFINITIONS[name];
    assert.ok(schema !== undefined, `missing definition ${name}`);
    visitSchema(schema);
  };
  for (const root of roots) visit(root);
  return seen;
}

describe('protobuf field-number table', () => {
  const reachable = reachableDefinitions();

  it('covers the served kinds named in the brief', () => {
    for (const kind of ['ConfigMap', 'Secret', 'Pod', 'Service', 'Node', 'PersistentVolume', 'Event']) {
      assert.ok(reachable.has(`io.k8s.api.core.v1.${kind}`), kind);
    }
    assert.ok(reachable.has('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps'));
    assert.ok(reachable.size > 150, `only ${reachable.size} definitions reachable`);
  });

  it('gives every property of every reachable definition a tag, directly or through an embedded struct', () => {
    for (const name of reachable) {
      const fields = FIELD_NUMBERS[name];
      assert.ok(fields !== undefined, `no field numbers for ${name}`);
      const covered = new Set(Object.keys(fields.tags));
      // Embedded structs may embed others (NamedRuleWithOperations → RuleWithOperations → Rule).
      const embedded = Object.values(fields.inline ?? {});
      for (const inner of embedded) {
        const innerFields = FIELD_NUMBERS[inner];
        assert.ok(innerFields !== undefined, `${name} embeds ${inner}, which has no field numbers`);
        for (const json of Object.keys(innerFields.tags)) covered.add(json);
        embedded.push(...Object.values(innerFields.inline ?? {}));
      }
      for (const property of Object.keys(BUILTIN_DEFINITIONS[name]?.properties ?? {})) {
        if (property === 'apiVersion' || property === 'kind') continue;
        assert.ok(covered.has(property), `${name}.${property} has no protobuf tag`);
      }
    }
  });

  it('never gives two fields of one message the same tag', () => {
    for (const [name, fields] of Object.entries(FIELD_NUMBERS)) {
      const tags = [...Object.values(fields.tags), ...Object.keys(fields.inline ?? {}).map(Number)];
      assert.equal(new Set(tags).size, tags.length, `duplicate tag in ${name}`);
      for (const pointer of fields.pointers ?? []) assert.ok(pointer in fields.tags, `${name}: pointer ${pointer} has no tag`);
    }
  });

  it('holds the numbers of generated.proto for well-known fields', () => {
    assert.deepEqual(FIELD_NUMBERS['io.k8s.api.core.v1.ConfigMap']?.tags, { metadata: 1, data: 2, binaryData: 3, immutable: 4 });
    assert.equal(FIELD_NUMBERS['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']?.tags.managedFields, 17);
    assert.equal(FIELD_NUMBERS['io.k8s.api.core.v1.PodSpec']?.tags.containers, 2);
    assert.deepEqual(FIELD_NUMBERS['io.k8s.api.core.v1.Probe']?.inline, { 1: 'io.k8s.api.core.v1.ProbeHandler' });
    assert.deepEqual(FIELD_NUMBERS['io.k8s.api.core.v1.Volume']?.inline, { 2: 'io.k8s.api.core.v1.VolumeSource' });
    assert.equal(FIELD_NUMBERS['io.k8s.api.apps.v1.DeploymentSpec']?.tags.progressDeadlineSeconds, 9);
  });
});
