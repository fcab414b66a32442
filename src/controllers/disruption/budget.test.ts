import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { budgetStatus, expectedCounts, healthyPods, needsControllerScale, pendingDisruptions, scaledValue } from './budget.js';

const pdb = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  spec,
  status,
});
const pod = (name: string, ready: boolean, deleting = false): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

describe('disruption budget arithmetic (pkg/controller/disruption)', () => {
  it('scales percentages up or down as intstr.GetScaledValueFromIntOrPercent does', () => {
    assert.equal(scaledValue('50%', 3, true), 2);
    assert.equal(scaledValue('50%', 3, false), 1);
    assert.equal(scaledValue(2, 10, true), 2);
  });

  it('an integer minAvailable counts the pods; percentages and maxUnavailable count the controllers’ replicas', () => {
    assert.equal(needsControllerScale(pdb({ minAvailable: 2 })), false);
    assert.deepEqual(expectedCounts(pdb({ minAvailable: 2 }), 3, 0), { expected: 3, desiredHealthy: 2 });
    assert.equal(needsControllerScale(pdb({ maxUnavailable: '50%' })), true);
    assert.deepEqual(expectedCounts(pdb({ maxUnavailable: '50%' }), 3, 3), { expected: 3, desiredHealthy: 1 });
    assert.deepEqual(expectedCounts(pdb({ minAvailable: '50%' }), 3, 4), { expected: 4, desiredHealthy: 2 });
    assert.deepEqual(expectedCounts(pdb({ maxUnavailable: 5 }), 3, 3), { expected: 3, desiredHealthy: 0 });
  });

  it('counts ready pods that are neither terminating nor just evicted, and forgets evictions once confirmed or old', () => {
    const pods = [pod('a', true), pod('b', true), pod('c', false), pod('d', true, true)];
    const now = Date.parse('2026-01-01T00:01:00Z');
    const budget = pdb({}, { disruptedPods: { b: '2026-01-01T00:00:30Z', d: '2026-01-01T00:00:30Z', old: '2025-12-31T00:00:00Z' } });
    const pending = pendingDisruptions(budget, pods, now);
    assert.deepEqual(pending, { b: '2026-01-01T00:00:30Z' });
    assert.equal(healthyPods(pods, pending), 1);
  });

  it('allows currentHealthy − desiredHealthy disruptions with DisruptionAllowed, InsufficientPods or SyncFailed', () => {
    const now = '2026-01-01T00:00:00Z';
    const ok = budgetStatus(pdb({ minAvailable: 1 }), { expected: 3, desiredHealthy: 1, currentHealthy: 3 }, {}, now);
    assert.equal(ok.disruptionsAllowed, 2);
    assert.deepEqual(ok.conditions, [
      { type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: now, reason: 'SufficientPods', message: '' },
    ]);
    const short = budgetStatus(pdb({ minAvailable: 3 }), { expected: 3, desiredHealthy: 3, currentHealthy: 2 }, {}, now);
    assert.equal(short.disruptionsAllowed, 0);
    assert.equal((short.conditions as { reason: string }[])[0]?.reason, 'InsufficientPods');
    const failed = budgetStatus(
      pdb({ maxUnavailable: 1 }),
      { expected: 0, desiredHealthy: 0, currentHealthy: 2 },
      {},
      now,
      'found no controllers for pod "x"',
    );
    assert.deepEqual(
      (failed.conditions as { reason: string; message: string }[]).map((c) => [c.reason, c.message]),
      [['SyncFailed', 'found no controllers for pod "x"']],
    );
    assert.equal(failed.disruptionsAllowed, 0);
  });
});
