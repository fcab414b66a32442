import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeFieldsV1, encodeFieldsV1, FieldSet, FieldsV1Error, keyElement, pathString, valueElement } from './fieldpath.js';

describe('FieldsV1 (R10.31–R10.33)', () => {
  it('round-trips members, members with children ("." first) and intermediate nodes', () => {
    const json = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } };
    const set = decodeFieldsV1(json);
    assert.ok(set.has(['f:metadata', 'f:labels']));
    assert.ok(set.has(['f:metadata', 'f:labels', 'f:app']));
    assert.ok(!set.has(['f:metadata']));
    assert.equal(JSON.stringify(encodeFieldsV1(set)), JSON.stringify(json));
  });

  it('orders f: by name, then k: by key fields, then v: by value order, then i: numerically', () => {
    const set = FieldSet.fromPaths([
      ['i:10'],
      ['i:2'],
      [valueElement(true)],
      [valueElement('b')],
      [valueElement(80)],
      [keyElement([['name', 'b']])],
      [keyElement([['protocol', 'TCP'], ['containerPort', 80]])],
      ['f:z'],
      ['f:a.b/c'],
    ]);
    assert.deepEqual(Object.keys(encodeFieldsV1(set)), [
      'f:a.b/c',
      'f:z',
      'k:{"containerPort":80,"protocol":"TCP"}',
      'k:{"name":"b"}',
      'v:80',
      'v:"b"',
      'v:true',
      'i:2',
      'i:10',
    ]);
  });

  it('re-spells client-written keys canonically and refuses unknown elements', () => {
    const set = decodeFieldsV1({ 'k:{"protocol":"TCP","containerPort":80}': {} });
    assert.ok(set.has([keyElement([['containerPort', 80], ['protocol', 'TCP']])]));
    assert.throws(() => decodeFieldsV1({ 'x:y': {} }), FieldsV1Error);
    assert.throws(() => decodeFieldsV1({ 'k:{bad': {} }), FieldsV1Error);
    assert.throws(() => decodeFieldsV1({ 'f:a': 1 }), FieldsV1Error);
  });

  it('prints SMD path notation', () => {
    assert.equal(pathString(['f:spec', 'f:containers', keyElement([['name', 'nginx']]), 'f:image']), '.spec.containers[name="nginx"].image');
    assert.equal(pathString(['f:ports', keyElement([['protocol', 'TCP'], ['containerPort', 80]])]), '[containerPort=80,protocol="TCP"]'.replace(/^/, '.ports'));
    assert.equal(pathString(['f:metadata', 'f:finalizers', valueElement('a/b')]), '.metadata.finalizers[="a/b"]');
    assert.equal(pathString(['f:args', 'i:3']), '.args[3]');
  });
});

describe('FieldSet operations', () => {
  const a = FieldSet.fromPaths([['f:a'], ['f:b', 'f:c'], ['f:b', 'f:d']]);
  const b = FieldSet.fromPaths([['f:b', 'f:c'], ['f:e']]);

  it('union, intersection and difference work per exact path', () => {
    assert.deepEqual(a.union(b).paths(), [['f:a'], ['f:e'], ['f:b', 'f:c'], ['f:b', 'f:d']]);
    assert.deepEqual(a.intersection(b).paths(), [['f:b', 'f:c']]);
    assert.deepEqual(a.difference(b).paths(), [['f:a'], ['f:b', 'f:d']]);
    assert.ok(a.difference(a).isEmpty());
  });

  it('recursiveDifference also drops what lies under a removed member', () => {
    const status = FieldSet.fromPaths([['f:b']]);
    assert.deepEqual(a.difference(status).paths(), a.paths());
    assert.deepEqual(a.recursiveDifference(status).paths(), [['f:a']]);
  });
});
