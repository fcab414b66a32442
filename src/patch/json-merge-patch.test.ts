import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from './errors.js';
import { applyJsonMergePatch } from './json-merge-patch.js';

describe('applyJsonMergePatch', () => {
  const original = {
    metadata: { name: 'x', labels: { a: '1', b: '2' }, finalizers: ['f1', 'f2'] },
    spec: { replicas: 1, template: { containers: [{ name: 'c', image: 'i' }] } },
  };

  const cases: { name: string; patch: unknown; expected: unknown }[] = [
    {
      name: 'null removes a key, other keys merge recursively',
      patch: { metadata: { labels: { a: null, c: '3' } } },
      expected: { ...original, metadata: { ...original.metadata, labels: { b: '2', c: '3' } } },
    },
    {
      name: 'arrays are replaced wholesale (finalizers)',
      patch: { metadata: { finalizers: ['f3'] } },
      expected: { ...original, metadata: { ...original.metadata, finalizers: ['f3'] } },
    },
    {
      name: 'removing the whole finalizers list with null',
      patch: { metadata: { finalizers: null } },
      expected: { ...original, metadata: { name: 'x', labels: { a: '1', b: '2' } } },
    },
    {
      name: 'a new object value loses its null members',
      patch: { metadata: { annotations: { keep: 'y', drop: null } } },
      expected: { ...original, metadata: { ...original.metadata, annotations: { keep: 'y' } } },
    },
    {
      name: 'an object replaces a scalar, a scalar replaces an object',
      patch: { spec: { replicas: { n: 1, m: null }, template: 'flat' } },
      expected: { ...original, spec: { replicas: { n: 1 }, template: 'flat' } },
    },
    {
      name: 'null for a missing key is a no-op',
      patch: { status: null },
      expected: original,
    },
    {
      name: 'an array patch replaces the document',
      patch: [1, { a: null, b: 2 }],
      expected: [1, { b: 2 }],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(applyJsonMergePatch(original, c.patch), c.expected);
    });
  }

  it('does not mutate its inputs', () => {
    const patch = { metadata: { labels: { a: null } } };
    const before = structuredClone(original);
    applyJsonMergePatch(original, patch);
    assert.deepEqual(original, before);
    assert.deepEqual(patch, { metadata: { labels: { a: null } } });
  });

  for (const patch of [null, 'text', 42, true]) {
    it(`rejects a ${JSON.stringify(patch)} patch with 400 "Invalid JSON Patch"`, () => {
      assert.throws(
        () => applyJsonMergePatch(original, patch),
        (err: unknown) =>
          err instanceof PatchError && err.code === 400 && err.reason === 'BadRequest' && err.message === 'Invalid JSON Patch',
      );
    });
  }
});
