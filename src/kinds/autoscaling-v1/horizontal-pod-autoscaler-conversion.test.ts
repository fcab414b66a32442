import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { horizontalPodAutoscalerFromV1, horizontalPodAutoscalerToV1 } from './horizontal-pod-autoscaler-conversion.js';

const REF = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const CPU_80 = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
const MEMORY = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };

function v2(spec: Record<string, unknown>, status: Record<string, unknown> = { desiredReplicas: 0, currentMetrics: null }): KubeObject {
  return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default' }, spec, status };
}

describe('autoscaling/v1 ↔ v2 HorizontalPodAutoscaler conversion (pkg/apis/autoscaling/v1/conversion.go)', () => {
  it('maps targetCPUUtilizationPercentage to a cpu Utilization metric and back', () => {
    const v1: KubeObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: REF, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
    };
    const stored = horizontalPodAutoscalerFromV1(v1);
    assert.equal(stored.apiVersion, 'autoscaling/v2');
    assert.deepEqual(stored.spec, {
      scaleTargetRef: REF,
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    });
    assert.equal(stored.status, undefined);
    const back = horizontalPodAutoscalerToV1({ ...stored, status: { desiredReplicas: 0, currentMetrics: null } });
    assert.deepEqual(back.spec, v1.spec);
    assert.deepEqual(back.status, { currentReplicas: 0, desiredReplicas: 0 });
    assert.equal(back.metadata.annotations, undefined);
  });

  it('gives a v1 HPA without a target the default 80% cpu metric', () => {
    const stored = horizontalPodAutoscalerFromV1({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: REF, maxReplicas: 3 },
    });
    assert.deepEqual((stored.spec as { metrics: unknown }).metrics, [CPU_80]);
  });

  it('carries the other metrics, behavior, current metrics and conditions in annotations, and reads them back', () => {
    const condition = {
      type: 'AbleToScale',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: 'SucceededGetScale',
      message: 'ok',
    };
    const behavior = {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
    };
    const stored = v2(
      { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, metrics: [CPU_80, MEMORY], behavior },
      {
        currentReplicas: 2,
        desiredReplicas: 2,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '10m', averageUtilization: 12 } } }],
        conditions: [condition],
      },
    );
    const v1 = horizontalPodAutoscalerToV1(stored);
    assert.deepEqual(v1.spec, { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 80 });
    assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 12 });
    assert.deepEqual(v1.metadata.annotations, {
      'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]',
      'autoscaling.alpha.kubernetes.io/current-metrics':
        '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":12,"currentAverageValue":"10m"}}]',
      'autoscaling.alpha.kubernetes.io/behavior':
        '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},"ScaleDown":null}',
      'autoscaling.alpha.kubernetes.io/conditions':
        '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"SucceededGetScale","message":"ok"}]',
    });
    const again = horizontalPodAutoscalerFromV1(v1);
    assert.deepEqual(again.metadata.annotations, undefined);
    assert.deepEqual(again.spec, { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, metrics: [MEMORY, CPU_80], behavior });
    assert.deepEqual(again.status, {
      currentReplicas: 2,
      desiredReplicas: 2,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '10m', averageUtilization: 12 } } }],
      conditions: [condition],
    });
  });

  it('converts pods, object and external metrics through the v1 annotation shape', () => {
    const metrics = [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      {
        type: 'Object',
        object: {
          describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' },
          metric: { name: 'requests' },
          target: { type: 'Value', value: '2k' },
        },
      },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
    ];
    const v1 = horizontalPodAutoscalerToV1(v2({ scaleTargetRef: REF, maxReplicas: 4, metrics }));
    assert.equal(
      v1.metadata.annotations?.['autoscaling.alpha.kubernetes.io/metrics'],
      '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}},' +
        '{"type":"Object","object":{"target":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"main"},"metricName":"requests","targetValue":"2k"}},' +
        '{"type":"External","external":{"metricName":"queue","targetAverageValue":"30"}}]',
    );
    assert.equal((v1.spec as Record<string, unknown>).targetCPUUtilizationPercentage, undefined);
    assert.deepEqual((horizontalPodAutoscalerFromV1(v1).spec as { metrics: unknown }).metrics, metrics);
  });

  it('refuses an annotation that is not JSON with a 400', () => {
    assert.throws(
      () =>
        horizontalPodAutoscalerFromV1({
          apiVersion: 'autoscaling/v1',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name: 'web', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '{' } },
          spec: { scaleTargetRef: REF, maxReplicas: 3 },
        }),
      (err: { code?: number }) => err.code === 400,
    );
  });
});
