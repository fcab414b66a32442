import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { encodeArchiveEntry } from './archive/entry.js';
import { decodeObject, encodeObject, storesSame } from './codec.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const applyEntry = {
  manager: 'kubectl',
  operation: 'Apply',
  apiVersion: 'apps/v1',
  time: '2026-11-27T22:43:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } } },
  },
};
const scaleEntry = {
  manager: 'kube-controller-manager',
  operation: 'Update',
  apiVersion: 'apps/v1',
  time: '2026-11-27T22:43:01Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:spec': { 'f:replicas': {} } },
  subresource: 'scale',
};
const otherVersionEntry = { ...applyEntry, manager: 'old', operation: 'Update', apiVersion: 'apps/v1beta2' };

function deployment(managedFields: unknown[]): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    // resourceVersion last: storage leaves it out and decoding appends it.
    metadata: { name: 'web', namespace: 'default', uid: 'u1', generation: 1, managedFields, labels: { app: 'web' }, resourceVersion: '5' },
    spec: { replicas: 2 },
  };
}

const roundTrip = (obj: KubeObject): KubeObject => decodeObject({ key: '/k', value: encodeObject(obj), createRevision: 5, modRevision: 5 });

describe('stored managedFields (issue 20 memory figure)', () => {
  it('reads back every server-written entry byte for byte, subresource and other apiVersions included', () => {
    const obj = deployment([applyEntry, scaleEntry, otherVersionEntry]);
    assert.equal(JSON.stringify(roundTrip(obj)), JSON.stringify(obj));
  });

  it('stores server-written entries positionally, fieldsType implied and the time in seconds', () => {
    const stored = JSON.parse(decoder.decode(encodeObject(deployment([applyEntry, scaleEntry])))) as KubeObject;
    assert.deepEqual(stored.metadata.managedFields, [
      ['kubectl', 0, 0, Date.parse(applyEntry.time) / 1000, applyEntry.fieldsV1],
      ['kube-controller-manager', 1, 0, Date.parse(scaleEntry.time) / 1000, scaleEntry.fieldsV1, 'scale'],
    ]);
    assert.equal(stored.metadata.resourceVersion, undefined);
  });

  it('keeps odd client-written entries in their full form: no time, a zoned or fractional time, other fieldsType, unknown or reordered keys', () => {
    const { time: _time, ...noTime } = applyEntry;
    const odd = [
      noTime,
      { ...applyEntry, time: '2026-11-27T23:43:00+01:00' },
      { ...applyEntry, time: '2026-11-27T22:43:00.5Z' },
      { ...applyEntry, fieldsType: 'FieldsV2' },
      { ...applyEntry, extra: true },
      { operation: 'Apply', manager: 'm', apiVersion: 'apps/v1', time: applyEntry.time, fieldsType: 'FieldsV1', fieldsV1: {} },
      { ...applyEntry, fieldsV1: 'not a map' },
      { ...applyEntry, subresource: 7 },
      {},
    ];
    const obj = deployment(odd);
    const stored = JSON.parse(decoder.decode(encodeObject(obj))) as KubeObject;
    assert.deepEqual(stored.metadata.managedFields, odd);
    assert.equal(JSON.stringify(roundTrip(obj)), JSON.stringify(obj));
  });

  it('decodes objects stored before the compact form (full entries) unchanged', () => {
    const obj = deployment([applyEntry, scaleEntry]);
    const { resourceVersion: _rv, ...metadata } = obj.metadata;
    const legacy = encoder.encode(JSON.stringify({ ...obj, metadata }));
    const decoded = decodeObject({ key: '/k', value: legacy, createRevision: 5, modRevision: 5 });
    assert.equal(JSON.stringify(decoded), JSON.stringify(obj));
  });

  it('counts an unchanged object as stored whether storage holds the compact or the earlier full form', () => {
    const obj = deployment([applyEntry]);
    const bytes = encodeObject(obj);
    const { resourceVersion: _rv, ...metadata } = obj.metadata;
    const legacy = encoder.encode(JSON.stringify({ ...obj, metadata }));
    assert.equal(storesSame(bytes, obj, bytes), true);
    assert.equal(storesSame(bytes, obj, legacy), true);
    const changed = { ...obj, spec: { replicas: 3 } };
    assert.equal(storesSame(encodeObject(changed), changed, legacy), false);
  });

  it('is smaller than the full form', () => {
    const obj = deployment([applyEntry]);
    const { resourceVersion: _rv, ...metadata } = obj.metadata;
    assert.ok(encodeObject(obj).length < encoder.encode(JSON.stringify({ ...obj, metadata })).length - 90);
  });

  it('expands the managedFields of the object an archive entry keeps', () => {
    const info = { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true } as ResourceInfo;
    const obj = deployment([applyEntry]);
    const bytes = encodeArchiveEntry(info, obj, encodeObject(obj), undefined, 'Delete', undefined, new Date(Date.UTC(2026, 0, 1)));
    const entry = decodeObject({ key: '/k', value: bytes, createRevision: 9, modRevision: 9 });
    assert.deepEqual((entry.object as KubeObject).metadata.managedFields, [applyEntry]);
  });
});
