import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { defaultHorizontalPodAutoscaler } from './horizontal-pod-autoscaler-defaults.js';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
} from './horizontal-pod-autoscaler-validation.js';

/** An HPA with the given spec fields over a valid, defaulted one. */
function hpa(spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
    ...(status ? { status } : {}),
  };
  defaultHorizontalPodAutoscaler(obj);
  return obj;
}

const rendered = (errs: ReturnType<typeof validateHorizontalPodAutoscaler>): string[] =>
  errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const metric = (m: Record<string, unknown>) => ({ metrics: [m] });
const cpu = (target: Record<string, unknown>) => metric({ type: 'Resource', resource: { name: 'cpu', target } });

test('valid HPAs are accepted (ValidateHorizontalPodAutoscaler)', () => {
  const valid: Array<Record<string, unknown>> = [
    {},
    { minReplicas: 5 },
    cpu({ type: 'AverageValue', averageValue: '100m' }),
    metric({ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }),
    metric({
      type: 'Object',
      object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Value', value: '2k' } },
    }),
    metric({ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } }),
    metric({
      type: 'ContainerResource',
      containerResource: { name: 'memory', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } },
    }),
    { behavior: { scaleUp: { stabilizationWindowSeconds: 3600, selectPolicy: 'Disabled' } } },
  ];
  for (const spec of valid) assert.deepEqual(rendered(validateHorizontalPodAutoscaler(hpa(spec))), [], JSON.stringify(spec));
});

const INVALID: Array<[string, Record<string, unknown>, string[]]> = [
  // validateHorizontalPodAutoscalerSpec
  [
    'minReplicas below 1',
    { minReplicas: 0, metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }] },
    ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1'],
  ],
  [
    'maxReplicas 0',
    { maxReplicas: 0 },
    [
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
    ],
  ],
  [
    'maxReplicas below minReplicas',
    { minReplicas: 6 },
    ['spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`'],
  ],
  // ValidateCrossVersionObjectReference
  [
    'scaleTargetRef without kind and name',
    { scaleTargetRef: {} },
    ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value'],
  ],
  [
    'scaleTargetRef name with a slash',
    { scaleTargetRef: { kind: 'Deployment', name: 'a/b' } },
    ['spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\''],
  ],
  // validateMetrics: scaling to zero
  [
    'minReplicas 0 with only a cpu metric',
    { minReplicas: 0 },
    [
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ],
  ],
  // validateMetricSpec
  [
    'metric without type',
    metric({ resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }),
    [
      'spec.metrics[0].type: Required value: must specify a metric source type',
      'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    ],
  ],
  [
    'Pods type without pods',
    metric({ type: 'Pods' }),
    ['spec.metrics[0].pods: Required value: must populate information for the given metric source'],
  ],
  [
    'two sources',
    metric({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } },
    }),
    ['spec.metrics[0].pods: Forbidden: must populate the given metric source only'],
  ],
  // validateResourceSource and validateMetricTarget
  [
    'resource without name or target',
    metric({ type: 'Resource', resource: { target: { type: 'Percent' } } }),
    [
      'spec.metrics[0].resource.name: Required value: must specify a resource name',
      'spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ],
  ],
  [
    'utilization 0 and an average value',
    cpu({ type: 'Utilization', averageUtilization: 0, averageValue: '-1' }),
    [
      'spec.metrics[0].resource.target.averageValue: Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}: must be positive',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
    ],
  ],
  [
    'target without type',
    cpu({ averageUtilization: 50 }),
    [
      'spec.metrics[0].resource.target.type: Required value: must specify a metric target type',
      'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
    ],
  ],
  // validateObjectSource, validateExternalSource, validatePodsSource
  [
    'object without anything',
    metric({ type: 'Object', object: { target: { type: 'Value' } } }),
    [
      'spec.metrics[0].object.describedObject.kind: Required value',
      'spec.metrics[0].object.describedObject.name: Required value',
      'spec.metrics[0].object.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue',
    ],
  ],
  [
    'external with both values',
    metric({ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '1' } } }),
    ['spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target'],
  ],
  [
    'pods without averageValue',
    metric({ type: 'Pods', pods: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }),
    ['spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue'],
  ],
  // validateContainerResourceSource
  [
    'container resource with a bad name and container',
    metric({
      type: 'ContainerResource',
      containerResource: { name: 'pods', container: 'App', target: { type: 'Utilization', averageUtilization: 60 } },
    }),
    [
      'spec.metrics[0].containerResource.name: Invalid value: "pods": must be a standard resource for containers',
      "spec.metrics[0].containerResource.container: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  ],
  // validateScalingRules and validateScalingPolicy
  [
    'scaling rules out of range',
    { behavior: { scaleDown: { stabilizationWindowSeconds: 3601, selectPolicy: 'Fast', policies: [] } } },
    [
      'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleDown.selectPolicy: Unsupported value: "Fast": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ],
  ],
  [
    'a bad policy',
    { behavior: { scaleUp: { stabilizationWindowSeconds: -1, policies: [{ type: 'Nodes', value: 0, periodSeconds: 1801 }] } } },
    [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
    ],
  ],
];

for (const [name, spec, expected] of INVALID) {
  test(`refused: ${name} (pkg/apis/autoscaling/validation)`, () => {
    assert.deepEqual(rendered(validateHorizontalPodAutoscaler(hpa(spec))), expected);
  });
}

test('ValidateHorizontalPodAutoscalerUpdate: an HPA stored with minReplicas 0 may keep it, others may not set it', () => {
  const external = { metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }] };
  const zero = hpa({ minReplicas: 0, ...external });
  assert.deepEqual(rendered(validateHorizontalPodAutoscalerUpdate(hpa({ minReplicas: 0, ...external }), zero)), []);
  assert.deepEqual(rendered(validateHorizontalPodAutoscalerUpdate(hpa({ minReplicas: 0, ...external }), hpa())), [
    'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
  ]);
  assert.deepEqual(rendered(validateHorizontalPodAutoscalerUpdate(hpa({ maxReplicas: 0 }), hpa())), [
    'spec.maxReplicas: Invalid value: 0: must be greater than 0',
    'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
  ]);
});

test('ValidateHorizontalPodAutoscalerStatusUpdate: replica counts are not negative', () => {
  assert.deepEqual(rendered(validateHorizontalPodAutoscalerStatusUpdate(hpa({}, { currentReplicas: 1, desiredReplicas: 0 }))), []);
  assert.deepEqual(rendered(validateHorizontalPodAutoscalerStatusUpdate(hpa({}, { currentReplicas: -1, desiredReplicas: -2 }))), [
    'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0',
  ]);
});
