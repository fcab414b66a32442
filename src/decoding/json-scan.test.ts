import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanJson } from './json-scan.js';
import { KUBERNETES_MAX_DEPTH } from './nesting.js';

describe('scanJson', () => {
  it('measures nesting, ignoring brackets inside strings and escaped quotes', () => {
    assert.equal(scanJson('1').depth, 0);
    assert.equal(scanJson('{"a":[{"b":"[[[\\"{{"}]}').depth, 3);
  });

  it("stops at the bracket past the limit, as Go's scanner does (10,000 by default)", () => {
    assert.deepEqual(scanJson('['.repeat(KUBERNETES_MAX_DEPTH)), { depth: KUBERNETES_MAX_DEPTH, duplicates: [] });
    assert.equal(scanJson(`${'['.repeat(KUBERNETES_MAX_DEPTH)}{`).tooDeep, '{');
    assert.equal(scanJson('[[[', 2).tooDeep, '[');
    assert.equal(scanJson('[[]]', 2).tooDeep, undefined);
  });

  it("reports duplicate fields with sigs.k8s.io/json's paths, in order and without repeats", () => {
    const text = '{"a":1,"a":2,"a":3,"d":{"x":"","x":""},"e":[{"f":1},{"g":1,"g":2}],"h":{"i":{"j":1,"j":2}}}';
    assert.deepEqual(scanJson(text).duplicates, [
      'duplicate field "a"',
      'duplicate field "d.x"',
      'duplicate field "e[1].g"',
      'duplicate field "h.i.j"',
    ]);
  });

  it('compares keys with their escapes resolved and keeps distinct objects apart', () => {
    assert.deepEqual(scanJson('{"a":1,"\\u0061":2}').duplicates, ['duplicate field "a"']);
    assert.deepEqual(scanJson('[{"a":1},{"a":2}]').duplicates, []);
    assert.deepEqual(scanJson('[{"a":1,"a":2}]').duplicates, ['duplicate field "[0].a"']);
  });
});
