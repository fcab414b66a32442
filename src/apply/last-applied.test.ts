import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonMap } from '../util/json-value.js';
import { LAST_APPLIED, refreshLastApplied } from './last-applied.js';

const live = (annotations: Record<string, string>, data: Record<string, string>): JsonMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', annotations },
  data,
});
const config = (data: Record<string, string>, annotations: Record<string, string> = {}): JsonMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', annotations: { [LAST_APPLIED]: '{}', ...annotations } },
  data,
});
const annotationsOf = (obj: JsonMap) => (obj.metadata as { annotations: Record<string, string> }).annotations;

describe('last-applied refresh for the kubectl manager (R10.111)', () => {
  it('rewrites the annotation to the configuration as kubectl encodes it, without the annotation itself', () => {
    const result = live({ [LAST_APPLIED]: 'old', team: 'a' }, { b: '<&>', a: '1' });
    refreshLastApplied(result, config({ b: '<&>', a: '1' }, { team: 'a' }));
    assert.equal(
      annotationsOf(result)[LAST_APPLIED],
      '{"apiVersion":"v1","data":{"a":"1","b":"\\u003c\\u0026\\u003e"},"kind":"ConfigMap","metadata":{"annotations":{"team":"a"},"name":"cm"}}\n',
    );
  });

  it('adds nothing to an object without the annotation', () => {
    const result = live({ team: 'a' }, { a: '1' });
    refreshLastApplied(result, config({ a: '1' }));
    assert.deepEqual(annotationsOf(result), { team: 'a' });
  });

  it('removes the annotation when the refreshed one would take the annotations past 256 KiB', () => {
    const big = 'x'.repeat(100 * 1024);
    // The other annotation is 150 KiB; the configuration carries 100 KiB of data plus it, so 350 KiB together.
    const other = 'y'.repeat(150 * 1024);
    const result = live({ [LAST_APPLIED]: 'old', other }, { big });
    refreshLastApplied(result, config({ big }, { other }));
    assert.deepEqual(Object.keys(annotationsOf(result)), ['other']);

    // Below the limit it is kept.
    const within = live({ [LAST_APPLIED]: 'old' }, { big });
    refreshLastApplied(within, config({ big }));
    assert.ok(annotationsOf(within)[LAST_APPLIED]?.includes(big));
  });
});
