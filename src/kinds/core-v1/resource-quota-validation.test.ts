import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { validateResourceQuota, validateResourceQuotaStatusUpdate, validateResourceQuotaUpdate } from './resource-quota-validation.js';
import { objectWith, rendered } from './validation-test-helpers.js';

const quota = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject =>
  objectWith('ResourceQuota', 'q', spec, status === undefined ? {} : { status });

describe('ResourceQuota scopes (validateResourceQuotaScopes, validateScopedResourceSelectorRequirement)', () => {
  const valid: [string, Record<string, unknown>][] = [
    ['pods limited to BestEffort pods', { hard: { pods: '10' }, scopes: ['BestEffort'] }],
    ['compute limited to NotTerminating pods', { hard: { 'requests.cpu': '1', 'limits.memory': '1Gi' }, scopes: ['NotTerminating'] }],
    [
      'a PriorityClass scope selector',
      { hard: { pods: '5' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } },
    ],
    [
      'an Exists selector on Terminating',
      { hard: { cpu: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'Terminating', operator: 'Exists' }] } },
    ],
  ];
  for (const [name, spec] of valid) {
    it(`accepts ${name}`, () => assert.deepEqual(validateResourceQuota(quota(spec)), []));
  }

  const invalid: [string, Record<string, unknown>, string[]][] = [
    [
      'an unknown scope',
      { hard: { secrets: '1' }, scopes: ['Weekend'] },
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Weekend"}: unsupported scope'],
    ],
    [
      'a BestEffort scope on cpu',
      { hard: { cpu: '1' }, scopes: ['BestEffort'] },
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource'],
    ],
    [
      'conflicting scopes',
      { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] },
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes'],
    ],
    [
      'a selector with In on BestEffort and no values',
      { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In' }] } },
      [
        'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
        "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      ],
    ],
    [
      'a selector with values on Exists and an unknown operator',
      {
        hard: { pods: '1' },
        scopeSelector: {
          matchExpressions: [
            { scopeName: 'PriorityClass', operator: 'Exists', values: ['x'] },
            { scopeName: 'PriorityClass', operator: 'Near', values: ['x'] },
          ],
        },
      },
      [
        `spec.scopeSelector.matchExpressions.values: Invalid value: []string{"x"}: must be no value when \`operator\` is 'Exist' or 'DoesNotExist' for scope selector`,
        'spec.scopeSelector.matchExpressions.operator: Invalid value: "Near": not a valid selector operator',
      ],
    ],
    [
      'a selector scope applied to storage',
      { hard: { 'requests.storage': '1Gi' }, scopeSelector: { matchExpressions: [{ scopeName: 'NotBestEffort', operator: 'Exists' }] } },
      [
        'spec.scopeSelector.matchExpressions: Invalid value: core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:"NotBestEffort", Operator:"Exists", Values:[]string(nil)}}}: unsupported scope applied to resource',
      ],
    ],
    ['a negative hard limit', { hard: { pods: '-1' } }, ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0']],
  ];
  for (const [name, spec, expected] of invalid) {
    it(`refuses ${name}`, () => assert.deepEqual(rendered(validateResourceQuota(quota(spec))), expected));
  }

  it('keeps scopes immutable on update, as sets (ValidateResourceQuotaUpdate)', () => {
    const old = quota({ hard: { pods: '1' }, scopes: ['BestEffort', 'Terminating'] });
    assert.deepEqual(validateResourceQuotaUpdate(quota({ hard: { pods: '2' }, scopes: ['Terminating', 'BestEffort'] }), old), []);
    assert.deepEqual(rendered(validateResourceQuotaUpdate(quota({ hard: { pods: '1' }, scopes: ['BestEffort'] }), old)), [
      'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: field is immutable',
    ]);
  });

  it('checks hard and used on /status (ValidateResourceQuotaStatusUpdate)', () => {
    assert.deepEqual(rendered(validateResourceQuotaStatusUpdate(quota({ scopes: ['Weekend'] }, { used: { pods: '1.5' } }))), [
      'status.used[pods]: Invalid value: "1.5": must be an integer',
    ]);
  });
});
