import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeySpace } from './key-space.js';

const text = (buffer: Buffer): string => buffer.toString('latin1');

describe('etcd key space', () => {
  it('stores keys unchanged under the default prefix, whatever they look like', () => {
    const keys = new KeySpace();
    assert.equal(keys.prefix, '/registry');
    assert.equal(text(keys.toEtcd('/registry/pods/ns/a')), '/registry/pods/ns/a');
    assert.equal(text(keys.toEtcd('/r/a')), '/r/a');
    assert.equal(keys.fromEtcd(Buffer.from('/r/a')), '/r/a');
  });

  it('normalizes the prefix as kube-apiserver joins --etcd-prefix onto /', () => {
    assert.equal(new KeySpace('registry').prefix, '/registry');
    assert.equal(new KeySpace('/registry/').prefix, '/registry');
    assert.equal(new KeySpace('/a//b/').prefix, '/a/b');
    assert.equal(new KeySpace('/').prefix, '');
    assert.equal(new KeySpace('').prefix, '');
  });

  it('replaces the leading /registry with a custom prefix and maps back', () => {
    const keys = new KeySpace('/tenant-a');
    assert.equal(text(keys.toEtcd('/registry/pods/ns/a')), '/tenant-a/pods/ns/a');
    assert.equal(keys.fromEtcd(Buffer.from('/tenant-a/pods/ns/a')), '/registry/pods/ns/a');
    const root = new KeySpace('/');
    assert.equal(text(root.toEtcd('/registry/pods/ns/a')), '/pods/ns/a');
    assert.equal(root.fromEtcd(Buffer.from('/pods/ns/a')), '/registry/pods/ns/a');
  });

  it('refuses keys outside /registry under a custom prefix', () => {
    assert.throws(() => new KeySpace('/tenant-a').toEtcd('/other/x'), RangeError);
  });

  it('turns a key prefix into the etcd range of exactly the keys that start with it', () => {
    const keys = new KeySpace('/t');
    const pods = keys.range('/registry/pods/');
    assert.equal(text(pods.key), '/t/pods/');
    assert.equal(text(pods.range_end), '/t/pods0');
    const all = keys.range('');
    assert.equal(text(all.key), '/t');
    assert.equal(text(all.range_end), '/u');
    const everything = new KeySpace().range('');
    assert.deepEqual([...everything.key], [0]);
    assert.deepEqual([...everything.range_end], [0], 'a zero range end means every key from the start on');
    // 'ÿ' is C3 BF in UTF-8: the range ends where its last byte is one higher, in byte order as etcd compares.
    assert.deepEqual([...new KeySpace().range('/aÿ').range_end], [0x2f, 0x61, 0xc3, 0xc0]);
  });

  it('starts a range at startKey when it lies past the prefix', () => {
    const keys = new KeySpace();
    assert.equal(text(keys.range('/p/', '/p/k3').key), '/p/k3');
    assert.equal(text(keys.range('/p/', '/a').key), '/p/', 'a startKey before the prefix changes nothing');
  });
});
