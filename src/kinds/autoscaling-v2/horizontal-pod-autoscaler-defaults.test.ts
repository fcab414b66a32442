import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { defaultHorizontalPodAutoscaler } from './horizontal-pod-autoscaler-defaults.js';
import { hpaTargetsCell } from './horizontal-pod-autoscaler-targets.js';
import { quantityLiteral } from './quantity-literal.js';

const withSpec = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'web' }, spec });

test('SetDefaults_HorizontalPodAutoscaler: minReplicas 1 and an 80% cpu metric; no behavior unless one is set', () => {
  const hpa = withSpec({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 });
  defaultHorizontalPodAutoscaler(hpa);
  assert.deepEqual(hpa.spec, {
    scaleTargetRef: { kind: 'Deployment', name: 'web' },
    maxReplicas: 3,
    minReplicas: 1,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
  });
});

test('SetDefaults_HorizontalPodAutoscalerBehavior: unset rules of both directions come from the defaults; scaleDown keeps no window', () => {
  const hpa = withSpec({
    minReplicas: 0,
    behavior: { scaleUp: { selectPolicy: 'Min' }, scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
  });
  defaultHorizontalPodAutoscaler(hpa);
  const spec = hpa.spec as Record<string, unknown>;
  assert.equal(spec.minReplicas, 0);
  assert.deepEqual(spec.behavior, {
    scaleUp: {
      selectPolicy: 'Min',
      stabilizationWindowSeconds: 0,
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    },
    scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], selectPolicy: 'Max' },
  });
});

test('formatHPAMetrics: per-type cells, <unknown> until reported, at most two then "+ N more..."', () => {
  const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
  const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
  const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
  const external = { type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } } };
  assert.equal(hpaTargetsCell([], undefined), '<none>');
  assert.equal(hpaTargetsCell([cpu], undefined), 'cpu: <unknown>/80%');
  assert.equal(
    hpaTargetsCell([cpu], [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } }]),
    'cpu: 12%/80%',
  );
  assert.equal(hpaTargetsCell([memory, pods], undefined), 'memory: <unknown>/100Mi, <unknown>/10');
  assert.equal(hpaTargetsCell([external, cpu, pods], undefined), '<unknown>/30 (avg), cpu: <unknown>/80% + 1 more...');
});

test('a Quantity in an Invalid value prints as Go %#v of the struct, caching only canonical text', () => {
  assert.equal(
    quantityLiteral('-100m').text,
    'resource.Quantity{i:resource.int64Amount{value:-100, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-100m", Format:"DecimalSI"}',
  );
  assert.equal(
    quantityLiteral('-1.5').text,
    'resource.Quantity{i:resource.int64Amount{value:-15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}',
  );
  assert.equal(
    quantityLiteral('-1Ki').text,
    'resource.Quantity{i:resource.int64Amount{value:-1024, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1Ki", Format:"BinarySI"}',
  );
});
