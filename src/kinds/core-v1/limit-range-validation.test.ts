import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateLimitRange } from './limit-range-validation.js';
import { objectWith, rendered } from './validation-test-helpers.js';

const limits = (...items: Record<string, unknown>[]) => objectWith('LimitRange', 'lr', { limits: items });

describe('LimitRange (ValidateLimitRange)', () => {
  it('accepts ordered bounds and a ratio within max/min', () => {
    const item = { type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '4' } };
    assert.deepEqual(validateLimitRange(limits(item, { type: 'PersistentVolumeClaim', max: { storage: '10Gi' } })), []);
  });

  const invalid: [string, Record<string, unknown>[], string[]][] = [
    [
      'a ratio below 1',
      [{ type: 'Container', maxLimitRequestRatio: { memory: '500m' } }],
      ['spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "500m": ratio 500m is less than 1'],
    ],
    [
      'a ratio above max/min',
      [{ type: 'Container', min: { cpu: '500m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '3' } }],
      ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000'],
    ],
    ['a duplicate type', [{ type: 'Pod' }, { type: 'Pod' }], ['spec.limits[1].type: Duplicate value: "Pod"']],
    [
      'a PersistentVolumeClaim item without storage bounds',
      [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }],
      ['spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided'],
    ],
  ];
  for (const [name, items, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validateLimitRange(limits(...items))), expected));
  }
});
