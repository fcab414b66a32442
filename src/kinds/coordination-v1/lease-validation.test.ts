import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateLease } from './lease-validation.js';

// Cases from pkg/apis/coordination/validation: ValidateLeaseSpec and ValidateCoordinatedLeaseStrategy.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const lease = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'l', namespace: 'default' },
  spec,
});

const CASES: [string, Record<string, unknown>, string[]][] = [
  ['a held lease', { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 }, []],
  ['an empty spec', {}, []],
  [
    'duration positive, transitions non-negative',
    { leaseDurationSeconds: 0, leaseTransitions: -1 },
    [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ],
  ],
  ['a known strategy', { strategy: 'OldestEmulationVersion', preferredHolder: 'b' }, []],
  [
    'an unknown strategy',
    { strategy: 'Newest' },
    ['spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'],
  ],
  [
    'preferredHolder needs a strategy',
    { preferredHolder: 'b' },
    ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'],
  ],
];

for (const [name, spec, expected] of CASES) {
  test(`ValidateLeaseSpec: ${name}`, () => assert.deepEqual(render(validateLease(lease(spec))), expected));
}
