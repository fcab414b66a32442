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
    [
      'an unknown type and a resource that is not a container resource (validateLimitRangeTypeName, validateContainerResourceName)',
      [
        { type: 'Node', max: { cpu: '1' } },
        { type: 'Container', max: { pods: '1' } },
      ],
      [
        'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
        'spec.limits[1].max[pods]: Invalid value: "pods": must be a standard resource for containers',
      ],
    ],
    [
      'a PersistentVolumeClaim item naming an unknown resource (validateResourceName)',
      [{ type: 'PersistentVolumeClaim', max: { storage: '1Gi', disks: '2' } }],
      ['spec.limits[0].max[disks]: Invalid value: "disks": must be a standard resource type or fully qualified'],
    ],
  ];
  for (const [name, items, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validateLimitRange(limits(...items))), expected));
  }
});
