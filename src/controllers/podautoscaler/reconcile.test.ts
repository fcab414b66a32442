import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { reconcileHpa } from './reconcile.js';

const NOW = '2026-01-01T00:00:00Z';
const CPU = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
const MEMORY = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } };

function hpa(min: number, max: number, metrics: unknown[] = [CPU]): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: min, maxReplicas: max, metrics },
    status: { desiredReplicas: 0, currentMetrics: null },
  };
}

const scale = (spec: number, status: number) => ({ specReplicas: spec, statusReplicas: status, selector: 'app=web' });
const conditionsOf = (status: Record<string, unknown>) =>
  (status.conditions as { type: string; status: string; reason: string; message: string }[]).map((c) => [
    c.type,
    c.status,
    c.reason,
    c.message,
  ]);

describe('the HPA controller without a metrics API (pkg/controller/podautoscaler reconcileAutoscaler)', () => {
  it('scales a target below minReplicas up to it, without reading metrics', () => {
    const outcome = reconcileHpa(hpa(2, 5), scale(1, 1), NOW);
    assert.equal(outcome.scaleTo, 2);
    assert.deepEqual(outcome.events, [
      { type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 2; reason: Current number of replicas below Spec.MinReplicas' },
    ]);
    assert.equal(outcome.status.lastScaleTime, NOW);
    assert.equal(outcome.status.currentReplicas, 1);
    assert.equal(outcome.status.desiredReplicas, 2);
    assert.deepEqual(conditionsOf(outcome.status), [
      ['AbleToScale', 'True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 2'],
    ]);
  });

  it('scales a target above maxReplicas down to it', () => {
    const outcome = reconcileHpa(hpa(1, 3), scale(7, 7), NOW);
    assert.equal(outcome.scaleTo, 3);
    assert.equal(outcome.events[0]?.message, 'New size: 3; reason: Current number of replicas above Spec.MaxReplicas');
  });

  it('reports in range that no resource metric can be read: ScalingActive False and both events', () => {
    const outcome = reconcileHpa(hpa(1, 5, [CPU, MEMORY]), scale(2, 2), NOW);
    assert.equal(outcome.scaleTo, undefined);
    assert.deepEqual(conditionsOf(outcome.status), [
      ['AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale"],
      [
        'ScalingActive',
        'False',
        'FailedGetResourceMetric',
        'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
      ],
    ]);
    assert.deepEqual(outcome.status.currentMetrics, [{ type: '' }, { type: '' }]);
    assert.equal(outcome.status.currentReplicas, 2);
    assert.deepEqual(
      outcome.events.map((e) => `${e.reason}: ${e.message}`),
      [
        'FailedGetResourceMetric: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
        'FailedGetResourceMetric: failed to get memory usage: unable to get metrics for resource memory: no metrics returned from resource metrics API',
        'FailedComputeMetricsReplicas: invalid metrics (2 invalid out of 2), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
      ],
    );
  });

  it('keeps a condition’s transition time while its status holds', () => {
    const first = reconcileHpa(hpa(1, 5), scale(2, 2), NOW);
    const again = reconcileHpa({ ...hpa(1, 5), status: first.status }, scale(2, 2), '2026-01-01T00:05:00Z');
    assert.deepEqual(again.status.conditions, first.status.conditions);
  });

  it('leaves a target scaled to zero alone: ScalingDisabled', () => {
    const outcome = reconcileHpa(hpa(1, 5), scale(0, 0), NOW);
    assert.equal(outcome.scaleTo, undefined);
    assert.deepEqual(conditionsOf(outcome.status)[1], [
      'ScalingActive',
      'False',
      'ScalingDisabled',
      'scaling is disabled since the replica count of the target is zero',
    ]);
  });

  it('reports a target whose scale cannot be read: AbleToScale False FailedGetScale', () => {
    const outcome = reconcileHpa(hpa(1, 5), { error: 'deployments.apps "web" not found' }, NOW);
    assert.deepEqual(conditionsOf(outcome.status), [
      [
        'AbleToScale',
        'False',
        'FailedGetScale',
        'the HPA controller was unable to get the target\'s current scale: deployments.apps "web" not found',
      ],
    ]);
    assert.deepEqual(outcome.events, [{ type: 'Warning', reason: 'FailedGetScale', message: 'deployments.apps "web" not found' }]);
  });
});
