import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../api/errors.js';
import { BUILTIN_DEFINITIONS } from '../kinds/definitions.js';
import { definitionRef, type Schema } from '../openapi/schema.js';
import { createdFieldsV1 } from './created-fields.js';
import { applyConfig, type Endpoint, recordUpdate } from './field-manager.js';
import { encodeFieldsV1, FieldSet } from './fieldpath.js';
import { decodeManagedFields, encodeManagedFields, type ManagedFields } from './managed-fields.js';
import { MergeSchemas } from './schema.js';

const schemas = new MergeSchemas(BUILTIN_DEFINITIONS);
const NOW = '2026-01-01T00:00:00Z';
const LATER = '2026-01-01T00:01:00Z';

function endpoint(definition: string, apiVersion = 'v1', now = NOW, resetFields = new FieldSet()): Endpoint {
  return { type: schemas.typeOf(definitionRef(definition)), apiVersion, subresource: undefined, resetFields, now };
}
const CM = 'io.k8s.api.core.v1.ConfigMap';
const cm = (extra: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, ...extra });

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err;
  }
  assert.fail('expected a conflict');
}

describe('applyConfig on ConfigMaps', () => {
  it('SSA-02: the first apply owns exactly what it sent, minus the stripped metadata (R10.36, R10.60)', () => {
    const fields: ManagedFields = new Map();
    const config = cm({ metadata: { name: 'cm', labels: { 'test-label': 'test' } }, data: { key: 'value' } });
    const { object, changed } = applyConfig(endpoint(CM), { apiVersion: 'v1', kind: 'ConfigMap' }, config, fields, 'A', false, 'default/cm');
    assert.ok(changed);
    assert.deepEqual(object.data, { key: 'value' });
    assert.deepEqual(encodeManagedFields(fields), [
      {
        manager: 'A',
        operation: 'Apply',
        apiVersion: 'v1',
        time: NOW,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
      },
    ]);
    // Re-applying the same configuration changes nothing, not even the time (R10.46).
    const again = applyConfig(endpoint(CM, 'v1', LATER), object, config, fields, 'A', false, 'default/cm');
    assert.equal(again.changed, false);
    assert.equal(fields.values().next().value?.time, NOW);
  });

  it('SSA-04: an Update takes a field; re-applying conflicts; force takes it back (R10.42, R10.86, R10.90)', () => {
    const fields: ManagedFields = new Map();
    const config = cm({ metadata: { name: 'cm', labels: { l: 'x' } }, data: { key: 'value' } });
    const live = applyConfig(endpoint(CM), { apiVersion: 'v1', kind: 'ConfigMap' }, config, fields, 'A', false, 'default/cm').object;
    const patched = { ...live, data: { key: 'new' } };
    recordUpdate(endpoint(CM, 'v1', LATER), live, patched, fields, 'updater');
    const encoded = encodeManagedFields(fields) ?? [];
    assert.deepEqual(encoded.map((e) => [e.manager, e.operation, e.fieldsV1]), [
      ['A', 'Apply', { 'f:metadata': { 'f:labels': { 'f:l': {} } } }],
      ['updater', 'Update', { 'f:data': { 'f:key': {} } }],
    ]);
    const err = conflictOf(() => applyConfig(endpoint(CM), patched, config, fields, 'A', false, 'default/cm'));
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "updater" using v1: .data.key');
    assert.deepEqual(err.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "updater" using v1', field: '.data.key' }] });
    const forced = applyConfig(endpoint(CM), patched, config, fields, 'A', true, 'default/cm');
    assert.deepEqual(forced.object.data, { key: 'value' });
    assert.deepEqual([...fields.values()].map((e) => e.manager), ['A']);
  });

  it('SSA-05: several conflicts are grouped per manager (R10.88)', () => {
    const fields: ManagedFields = new Map();
    const empty = { apiVersion: 'v1', kind: 'ConfigMap' };
    const created = cm({ data: { a: '1', b: '2' } });
    recordUpdate(endpoint(CM), empty, created, fields, 'x');
    const patched = cm({ data: { a: '1', b: '2', c: '3' } });
    recordUpdate(endpoint(CM), created, patched, fields, 'y');
    const err = conflictOf(() => applyConfig(endpoint(CM), patched, cm({ data: { a: 'A', b: 'B', c: 'C' } }), fields, 'A', false, 'default/cm'));
    assert.equal(
      err.message,
      'Apply failed with 3 conflicts: conflicts with "x" using v1:\n- .data.a\n- .data.b\nconflicts with "y" using v1:\n- .data.c',
    );
    assert.equal(err.details?.causes?.length, 3);
  });

  it('SSA-06/07: equal values are shared; a field leaves only when its last owner stops applying it (R10.85, R10.93)', () => {
    const fields: ManagedFields = new Map();
    let live: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap' };
    const apply = (manager: string, config: Record<string, unknown>, force = false): void => {
      live = applyConfig(endpoint(CM), live, config, fields, manager, force, 'default/cm').object;
    };
    apply('A', cm({ metadata: { name: 'cm', labels: { a: '1', b: '2' } } }));
    apply('B', cm({ metadata: { name: 'cm', labels: { b: '2' } } }));
    apply('A', cm({ metadata: { name: 'cm', labels: { a: '1' } } }));
    assert.deepEqual((live.metadata as Record<string, unknown>).labels, { a: '1', b: '2' });
    const err = conflictOf(() => apply('A', cm({ metadata: { name: 'cm', labels: { a: '1', b: '3' } } })));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "B": .metadata.labels.b');
    apply('B', cm({ metadata: { name: 'cm' } }));
    assert.deepEqual((live.metadata as Record<string, unknown>).labels, { a: '1' });
    assert.deepEqual([...fields.values()].map((e) => e.manager), ['A']);
  });

  it('an Update that changes nothing records nothing (R10.44); removals leave every entry (R10.43)', () => {
    const fields: ManagedFields = new Map();
    const live = applyConfig(endpoint(CM), { apiVersion: 'v1', kind: 'ConfigMap' }, cm({ data: { k: 'v', j: 'w' } }), fields, 'A', false, 'ns/cm').object;
    recordUpdate(endpoint(CM), live, structuredClone(live), fields, 'noop');
    assert.equal(fields.size, 1);
    recordUpdate(endpoint(CM), live, { ...live, data: { j: 'w' } }, fields, 'remover');
    assert.deepEqual(encodeFieldsV1([...fields.values()][0]?.set ?? new FieldSet()), { 'f:data': { 'f:j': {} } });
    assert.equal(fields.size, 1);
  });

  it('R10.14: undeclared fields and wrong types are reported as SMD words them', () => {
    const fields: ManagedFields = new Map();
    const err = conflictOf(() =>
      applyConfig(endpoint(CM), { apiVersion: 'v1', kind: 'ConfigMap' }, cm({ spec: {}, data: { k: 1 } }), fields, 'A', false, 'default/cm; /v1, Kind=ConfigMap'),
    );
    assert.equal(err.code, 400);
    assert.equal(
      err.message,
      'failed to create typed patch object (default/cm; /v1, Kind=ConfigMap): errors:\n  .spec: field not declared in schema\n  .data.k: expected string, got &value.valueUnstructured{Value:1}',
    );
  });
});

describe('applyConfig on keyed lists (R10.61, R10.69, R10.96, R10.104)', () => {
  const port: Schema = {
    type: 'object',
    properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } },
  };
  const container: Schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      image: { type: 'string' },
      workingDir: { type: 'string' },
      ports: { type: 'array', items: port, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'] },
    },
  };
  const root: Schema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: definitionRef('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
      spec: {
        type: 'object',
        properties: { containers: { type: 'array', items: container, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } },
      },
    },
  };
  const ep: Endpoint = { type: schemas.typeOf(root), apiVersion: 'g/v1', subresource: undefined, resetFields: new FieldSet(), now: NOW };
  const obj = (containers: unknown[]): Record<string, unknown> => ({ apiVersion: 'g/v1', kind: 'W', metadata: { name: 'w' }, spec: { containers } });
  const c = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, image: 'i', ...extra });

  it('SSA-09: order of merged items, defaulted keys and who owns them', () => {
    const fields: ManagedFields = new Map();
    const created = obj([c('a'), c('b'), c('c')]);
    recordUpdate(ep, { apiVersion: 'g/v1', kind: 'W' }, created, fields, 'creator');
    let live = applyConfig(ep, created, obj([c('c'), c('a')]), fields, 'A', false, 'w').object;
    assert.deepEqual(
      (live.spec as { containers: { name: string }[] }).containers.map((x) => x.name),
      ['b', 'c', 'a'],
    );
    live = applyConfig(ep, live, obj([c('c', { ports: [{ containerPort: 80, name: 'http' }] })]), fields, 'A', false, 'w').object;
    const a = encodeManagedFields(fields)?.find((e) => e.manager === 'A');
    assert.deepEqual(a?.fieldsV1, {
      'f:spec': {
        'f:containers': {
          'k:{"name":"c"}': {
            '.': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } },
          },
        },
      },
    });
    const err = conflictOf(() =>
      applyConfig(ep, live, obj([c('c', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'web' }] })]), fields, 'B', false, 'w'),
    );
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "A": .spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].name');
  });

  it('SSA-10: an item the applier drops goes, with the fields others set inside it', () => {
    const fields: ManagedFields = new Map();
    let live = applyConfig(ep, { apiVersion: 'g/v1', kind: 'W' }, obj([c('c')]), fields, 'A', false, 'w').object;
    const updated = obj([c('c', { workingDir: '/w' })]);
    recordUpdate(ep, live, updated, fields, 'ctl');
    live = applyConfig(ep, updated, obj([c('d')]), fields, 'A', false, 'w').object;
    assert.deepEqual((live.spec as { containers: unknown[] }).containers, [c('d')]);
    assert.deepEqual([...fields.values()].map((e) => e.manager), ['A']);
  });

  it('duplicate keys in a configuration are refused', () => {
    const err = conflictOf(() => applyConfig(ep, { apiVersion: 'g/v1', kind: 'W' }, obj([c('x'), c('x')]), new Map(), 'A', false, 'w'));
    assert.equal(err.message, 'failed to create typed patch object (w): .spec.containers: duplicate entries for key [name="x"]');
  });
});

describe('managedFields lists', () => {
  it('later duplicates win and entries sort Apply first, then by time (R10.34, R10.57)', () => {
    const f = { 'f:data': { 'f:a': {} } };
    const fields = decodeManagedFields([
      { manager: 'u', operation: 'Update', apiVersion: 'v1', time: NOW, fieldsType: 'FieldsV1', fieldsV1: f },
      { manager: 'M', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: f },
      { manager: 'M', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:b': {} } } },
    ]);
    assert.deepEqual(encodeManagedFields(fields)?.map((e) => [e.manager, e.fieldsV1]), [
      ['M', { 'f:data': { 'f:b': {} } }],
      ['u', f],
    ]);
    assert.throws(() => decodeManagedFields([{ manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: '' }]));
  });

  it('SSA-11: past ten Update entries the oldest fold into ancient-changes (R10.52)', () => {
    const fields: ManagedFields = new Map();
    let live: Record<string, unknown> = cm({});
    for (let i = 0; i < 20; i++) {
      const next = cm({ metadata: { name: 'cm', labels: { ...((live.metadata as { labels?: object }).labels ?? {}), [`l${i}`]: 'x' } } });
      recordUpdate(endpoint(CM, 'v1', `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`), live, next, fields, `updater${i}`);
      live = next;
    }
    const managers = encodeManagedFields(fields)?.map((e) => e.manager);
    assert.equal(managers?.length, 10);
    assert.equal(managers?.[0], 'ancient-changes');
  });
});

describe('createdFieldsV1', () => {
  it('equals what recordUpdate records for a create from no entries (R10.49)', () => {
    const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
    const status = FieldSet.fromPaths([['f:status']]);
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'n', uid: 'u', labels: { a: 'b' }, annotations: {}, finalizers: ['x/y'] },
      spec: {
        replicas: 1,
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'E' }, { name: 'E' }] }] },
        },
      },
      status: { replicas: 0 },
    };
    const fields: ManagedFields = new Map();
    const ep = endpoint(DEPLOYMENT, 'apps/v1', NOW, status);
    recordUpdate(ep, { apiVersion: 'apps/v1', kind: 'Deployment' }, obj, fields, 'creator');
    assert.deepEqual(JSON.stringify(createdFieldsV1(obj, ep.type, status)), JSON.stringify(encodeManagedFields(fields)?.[0]?.fieldsV1));
    assert.equal(createdFieldsV1({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, endpoint(CM).type, new FieldSet()), undefined);
  });
});
