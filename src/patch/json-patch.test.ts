import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from './errors.js';
import { applyJsonPatch, jsonPatchStrictErrors, MAX_JSON_PATCH_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS } from './json-patch.js';

const original = {
  metadata: { name: 'x', labels: { a: '1' }, finalizers: ['f1', 'f2'] },
  spec: { replicas: 1 },
};

describe('applyJsonPatch: successful operations', () => {
  const cases: { name: string; patch: unknown; expected: unknown }[] = [
    {
      name: 'add a label and append a finalizer',
      patch: [
        { op: 'add', path: '/metadata/labels/b', value: '2' },
        { op: 'add', path: '/metadata/finalizers/-', value: 'f3' },
      ],
      expected: { ...original, metadata: { ...original.metadata, labels: { a: '1', b: '2' }, finalizers: ['f1', 'f2', 'f3'] } },
    },
    {
      name: 'remove a finalizer by index after a passing test',
      patch: [
        { op: 'test', path: '/metadata/finalizers/0', value: 'f1' },
        { op: 'remove', path: '/metadata/finalizers/0' },
      ],
      expected: { ...original, metadata: { ...original.metadata, finalizers: ['f2'] } },
    },
    {
      name: 'replace of a missing object member adds it (server library behaviour)',
      patch: [{ op: 'replace', path: '/spec/paused', value: true }],
      expected: { ...original, spec: { replicas: 1, paused: true } },
    },
    {
      name: 'test of a missing member against null passes',
      patch: [{ op: 'test', path: '/metadata/uid', value: null }],
      expected: original,
    },
    {
      name: 'move and copy',
      patch: [
        { op: 'copy', from: '/metadata/name', path: '/metadata/labels/name' },
        { op: 'move', from: '/spec/replicas', path: '/spec/count' },
      ],
      expected: { ...original, metadata: { ...original.metadata, labels: { a: '1', name: 'x' } }, spec: { count: 1 } },
    },
    { name: 'a null body is an empty patch', patch: null, expected: original },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(applyJsonPatch(original, c.patch), c.expected);
    });
  }
});

describe('applyJsonPatch: failures', () => {
  const generic = 'the server rejected our request due to an error in our request';
  const cases: { name: string; patch: unknown; code: number; reason: string; message: string }[] = [
    {
      name: 'a failing test operation is 422 with the generic message',
      patch: [{ op: 'test', path: '/metadata/name', value: 'y' }],
      code: 422,
      reason: 'Invalid',
      message: generic,
    },
    {
      name: 'removing a missing member',
      patch: [{ op: 'remove', path: '/metadata/labels/zzz' }],
      code: 422,
      reason: 'Invalid',
      message: generic,
    },
    {
      name: 'adding under a missing parent',
      patch: [{ op: 'add', path: '/status/phase', value: 'x' }],
      code: 422,
      reason: 'Invalid',
      message: generic,
    },
    {
      name: 'an index past the end',
      patch: [{ op: 'replace', path: '/metadata/finalizers/5', value: 'x' }],
      code: 422,
      reason: 'Invalid',
      message: generic,
    },
    { name: 'an unknown op', patch: [{ op: 'merge', path: '/spec', value: {} }], code: 422, reason: 'Invalid', message: generic },
    { name: 'a missing path', patch: [{ op: 'add', value: 1 }], code: 422, reason: 'Invalid', message: generic },
    {
      name: 'a body that is not a list is 400',
      patch: { op: 'add' },
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    },
    {
      name: 'an operation that is not an object is 400',
      patch: ['add'],
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
    },
    {
      name: 'too many operations is 413',
      patch: Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 })),
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: `The allowed maximum operations in a JSON patch is 10000, got ${MAX_JSON_PATCH_OPERATIONS + 1}`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.throws(
        () => applyJsonPatch(original, c.patch),
        (err: unknown) => {
          assert.ok(err instanceof PatchError);
          assert.deepEqual([err.code, err.reason, err.message], [c.code, c.reason, c.message]);
          return true;
        },
      );
    });
  }

  it('a failure leaves the original untouched (operations apply to a copy)', () => {
    const before = structuredClone(original);
    assert.throws(() =>
      applyJsonPatch(original, [
        { op: 'add', path: '/metadata/labels/b', value: '2' },
        { op: 'test', path: '/spec/replicas', value: 9 },
      ]),
    );
    assert.deepEqual(original, before);
  });
});

describe('applyJsonPatch: copied bytes are bounded per patch, as JSONPatchMaxCopyBytes bounds them', () => {
  it('refuses the copy that takes the total past 3 MiB with a 422, before the object doubles further', () => {
    const doc = { data: { seed: 'x'.repeat(1024) } };
    // Each copy doubles /data: the 12th would take the copied total past the limit.
    const patch = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` }));
    assert.throws(
      () => applyJsonPatch(doc, patch),
      (err: unknown) => {
        assert.ok(err instanceof PatchError);
        assert.equal(err.code, 422);
        assert.match(err.detail, /Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728/);
        return true;
      },
    );
    assert.equal(MAX_JSON_PATCH_COPY_BYTES, 3145728);
  });

  it('lets copies under the limit through', () => {
    const patched = applyJsonPatch({ a: { b: 'v' } }, [{ op: 'copy', from: '/a', path: '/c' }]);
    assert.deepEqual(patched, { a: { b: 'v' }, c: { b: 'v' } });
  });
});

describe('jsonPatchStrictErrors', () => {
  it('names operation members the server does not know', () => {
    assert.deepEqual(
      jsonPatchStrictErrors([
        { op: 'add', path: '/a', value: 1, extra: true },
        { op: 'remove', path: '/b' },
      ]),
      ['json patch unknown field "[0].extra"'],
    );
  });
});
