import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatusUpdate,
  validatePodDisruptionBudgetUpdate,
} from './pod-disruption-budget-validation.js';

const budget = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec,
  ...(status === undefined ? {} : { status }),
});
const rendered = (errs: ReturnType<typeof validatePodDisruptionBudget>): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('PodDisruptionBudget (ValidatePodDisruptionBudgetSpec, policy/v1)', () => {
  const valid: [string, Record<string, unknown>][] = [
    ['minAvailable as a number', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } }],
    ['maxUnavailable as a percent', { maxUnavailable: '25%', selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } }],
    ['an empty selector and AlwaysAllow', { minAvailable: '100%', selector: {}, unhealthyPodEvictionPolicy: 'AlwaysAllow' }],
  ];
  for (const [name, spec] of valid) {
    it(`accepts ${name}`, () => assert.deepEqual(validatePodDisruptionBudget(budget(spec)), []));
  }

  const invalid: [string, Record<string, unknown>, string[]][] = [
    [
      'a negative minAvailable (ValidatePositiveIntOrPercent)',
      { minAvailable: -1 },
      ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'more than 100% (IsNotMoreThan100Percent)',
      { maxUnavailable: '120%' },
      ['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%'],
    ],
    [
      'a selector with a bad label value (metav1validation.ValidateLabelSelector)',
      { minAvailable: 1, selector: { matchLabels: { app: 'web server' } } },
      [`spec.selector.matchLabels: Invalid value: "web server": ${LABEL_VALUE}`],
    ],
    [
      'a selector operator In without values',
      { minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } },
      ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ],
    [
      'an unknown eviction policy',
      { minAvailable: 1, unhealthyPodEvictionPolicy: 'Never' },
      ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"'],
    ],
  ];
  for (const [name, spec, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validatePodDisruptionBudget(budget(spec))), expected));
  }

  it('refuses a new invalid selector on update but keeps one the stored budget already had', () => {
    const bad = { minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } };
    assert.deepEqual(validatePodDisruptionBudgetUpdate(budget(bad), budget(bad)), []);
    assert.equal(validatePodDisruptionBudgetUpdate(budget(bad), budget({ minAvailable: 1 })).length, 1);
  });

  it('refuses negative status counters (ValidatePodDisruptionBudgetStatusUpdate)', () => {
    const next = budget({ minAvailable: 1 }, { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    assert.deepEqual(rendered(validatePodDisruptionBudgetStatusUpdate(next)), [
      'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});
