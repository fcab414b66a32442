import {
  arrayOf,
  conditionDefinition,
  int32,
  int64,
  kindDefinition,
  LABEL_SELECTOR,
  listDefinition,
  ref,
  str,
  TIME,
} from '../../openapi/builders/group-builders.js';
import { QUANTITY } from '../../openapi/builders/shorthand.js';
import { definitionRef, type Definitions, type Schema } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';

/** autoscaling/v2 HorizontalPodAutoscaler: its OpenAPI definitions and protobuf field numbers (generated.proto). */

const P = 'io.k8s.api.autoscaling.v2.';

const metricIdentifier = (description: string) => ref(`${P}MetricIdentifier`, description);
const target = ref(`${P}MetricTarget`, 'The value the metric is driven towards.');
const current = ref(`${P}MetricValueStatus`, 'The value last read.');
const describedObject = ref(`${P}CrossVersionObjectReference`, 'The object the metric describes.');

function source(description: string, properties: Record<string, Schema>, required: string[]): Schema {
  return { type: 'object', description, properties, required };
}

export const HPA_DEFINITIONS: Definitions = {
  [`${P}HorizontalPodAutoscaler`]: kindDefinition({
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    description: 'HorizontalPodAutoscaler adjusts the replica count of a scalable resource from the metrics it is given.',
    properties: {
      spec: ref(`${P}HorizontalPodAutoscalerSpec`, 'The desired autoscaling behaviour.'),
      status: ref(`${P}HorizontalPodAutoscalerStatus`, 'What the autoscaler last observed and decided.'),
    },
  }),
  [`${P}HorizontalPodAutoscalerList`]: listDefinition('autoscaling', 'v2', 'HorizontalPodAutoscaler', `${P}HorizontalPodAutoscaler`),
  [`${P}HorizontalPodAutoscalerSpec`]: {
    type: 'object',
    description: 'What to scale, between which bounds, on which metrics and how fast.',
    properties: {
      behavior: ref(`${P}HorizontalPodAutoscalerBehavior`, 'Scaling rules for each direction; defaulted when set.'),
      maxReplicas: int32('Upper bound of the replica count; not below minReplicas.'),
      metrics: arrayOf(definitionRef(`${P}MetricSpec`), 'Metrics the replica count is computed from; 80% average CPU when empty.', {
        'x-kubernetes-list-type': 'atomic',
      }),
      minReplicas: int32('Lower bound of the replica count; defaults to 1.'),
      scaleTargetRef: ref(`${P}CrossVersionObjectReference`, 'The resource whose scale subresource is driven.'),
    },
    required: ['scaleTargetRef', 'maxReplicas'],
  },
  [`${P}CrossVersionObjectReference`]: {
    type: 'object',
    description: 'Identifies an object by kind, name and optionally API version.',
    properties: {
      apiVersion: str('API version of the referent.'),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
    },
    required: ['kind', 'name'],
  },
  [`${P}HorizontalPodAutoscalerBehavior`]: {
    type: 'object',
    description: 'Scaling rules for scaling up and scaling down.',
    properties: {
      scaleDown: ref(`${P}HPAScalingRules`, 'Rules for scaling down.'),
      scaleUp: ref(`${P}HPAScalingRules`, 'Rules for scaling up.'),
    },
  },
  [`${P}HPAScalingRules`]: {
    type: 'object',
    description: 'How fast one direction may scale and how long recommendations are remembered.',
    properties: {
      policies: arrayOf(definitionRef(`${P}HPAScalingPolicy`), 'Policies limiting the change per period.', {
        'x-kubernetes-list-type': 'atomic',
      }),
      selectPolicy: str('Which policy wins: Max (the default), Min or Disabled.'),
      stabilizationWindowSeconds: int32('Seconds of past recommendations considered (0 to 3600).'),
    },
  },
  [`${P}HPAScalingPolicy`]: {
    type: 'object',
    description: 'One limit on the change of replicas within a period.',
    properties: {
      periodSeconds: int32('Length of the period in seconds (1 to 1800).'),
      type: str('Pods or Percent.'),
      value: int32('The change allowed in the period; above zero.'),
    },
    required: ['type', 'value', 'periodSeconds'],
  },
  [`${P}MetricSpec`]: {
    type: 'object',
    description: 'One metric to scale on: its type and the matching source.',
    properties: {
      containerResource: ref(`${P}ContainerResourceMetricSource`, 'A resource of one container of each pod.'),
      external: ref(`${P}ExternalMetricSource`, 'A metric not tied to any Kubernetes object.'),
      object: ref(`${P}ObjectMetricSource`, 'A metric describing one Kubernetes object.'),
      pods: ref(`${P}PodsMetricSource`, 'A metric describing each pod, averaged.'),
      resource: ref(`${P}ResourceMetricSource`, 'A resource (from requests and limits) of each pod.'),
      type: str('ContainerResource, External, Object, Pods or Resource.'),
    },
    required: ['type'],
  },
  [`${P}ContainerResourceMetricSource`]: source(
    'Scale on a resource of one container in each pod.',
    { container: str('The container.'), name: str('The resource.'), target },
    ['name', 'target', 'container'],
  ),
  [`${P}ExternalMetricSource`]: source('Scale on a metric from outside the cluster.', { metric: metricIdentifier('The metric.'), target }, [
    'metric',
    'target',
  ]),
  [`${P}ObjectMetricSource`]: source(
    'Scale on a metric of one object.',
    { describedObject, metric: metricIdentifier('The metric.'), target },
    ['describedObject', 'target', 'metric'],
  ),
  [`${P}PodsMetricSource`]: source('Scale on a per-pod metric.', { metric: metricIdentifier('The metric.'), target }, ['metric', 'target']),
  [`${P}ResourceMetricSource`]: source('Scale on a resource of each pod.', { name: str('The resource.'), target }, ['name', 'target']),
  [`${P}MetricIdentifier`]: {
    type: 'object',
    description: 'A metric by name and optional selector.',
    properties: {
      name: str('Name of the metric.'),
      selector: ref(LABEL_SELECTOR, 'Narrows the metric for the metrics server.'),
    },
    required: ['name'],
  },
  [`${P}MetricTarget`]: {
    type: 'object',
    description: 'The target value, average value or average utilization of a metric.',
    properties: {
      averageUtilization: int32('Target average, as a percentage of the pods’ requests (Resource metrics).'),
      averageValue: ref(QUANTITY, 'Target average across the pods.'),
      type: str('Utilization, Value or AverageValue.'),
      value: ref(QUANTITY, 'Target value.'),
    },
    required: ['type'],
  },
  [`${P}HorizontalPodAutoscalerStatus`]: {
    type: 'object',
    description: 'What the autoscaler last observed and decided.',
    properties: {
      conditions: arrayOf(definitionRef(`${P}HorizontalPodAutoscalerCondition`), 'Whether the autoscaler can scale, and why.', {
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      }),
      currentMetrics: arrayOf(definitionRef(`${P}MetricStatus`), 'The metrics as last read.', {
        'x-kubernetes-list-type': 'atomic',
      }),
      currentReplicas: int32('Replicas last seen.'),
      desiredReplicas: int32('Replicas last computed.'),
      lastScaleTime: ref(TIME, 'When the autoscaler last changed the replica count.'),
      observedGeneration: int64('The generation this status describes.'),
    },
    required: ['desiredReplicas'],
  },
  [`${P}HorizontalPodAutoscalerCondition`]: conditionDefinition('One condition of a HorizontalPodAutoscaler.'),
  [`${P}MetricStatus`]: {
    type: 'object',
    description: 'The last-read state of one metric.',
    properties: {
      containerResource: ref(`${P}ContainerResourceMetricStatus`, 'A container resource metric.'),
      external: ref(`${P}ExternalMetricStatus`, 'An external metric.'),
      object: ref(`${P}ObjectMetricStatus`, 'An object metric.'),
      pods: ref(`${P}PodsMetricStatus`, 'A pods metric.'),
      resource: ref(`${P}ResourceMetricStatus`, 'A resource metric.'),
      type: str('ContainerResource, External, Object, Pods or Resource.'),
    },
    required: ['type'],
  },
  [`${P}ContainerResourceMetricStatus`]: source(
    'Current value of a container resource metric.',
    { container: str('The container.'), current, name: str('The resource.') },
    ['name', 'current', 'container'],
  ),
  [`${P}ExternalMetricStatus`]: source('Current value of an external metric.', { current, metric: metricIdentifier('The metric.') }, [
    'metric',
    'current',
  ]),
  [`${P}ObjectMetricStatus`]: source(
    'Current value of an object metric.',
    { current, describedObject, metric: metricIdentifier('The metric.') },
    ['metric', 'current', 'describedObject'],
  ),
  [`${P}PodsMetricStatus`]: source('Current value of a pods metric.', { current, metric: metricIdentifier('The metric.') }, [
    'metric',
    'current',
  ]),
  [`${P}ResourceMetricStatus`]: source('Current value of a resource metric.', { current, name: str('The resource.') }, ['name', 'current']),
  [`${P}MetricValueStatus`]: {
    type: 'object',
    description: 'A current metric value.',
    properties: {
      averageUtilization: int32('Current average, as a percentage of the pods’ requests.'),
      averageValue: ref(QUANTITY, 'Current average across the pods.'),
      value: ref(QUANTITY, 'Current value.'),
    },
  },
};

export const HPA_FIELD_NUMBERS: FieldNumberTable = {
  [`${P}HorizontalPodAutoscaler`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}HorizontalPodAutoscalerList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}HorizontalPodAutoscalerSpec`]: {
    tags: { scaleTargetRef: 1, minReplicas: 2, maxReplicas: 3, metrics: 4, behavior: 5 },
    pointers: ['minReplicas'],
  },
  [`${P}CrossVersionObjectReference`]: { tags: { kind: 1, name: 2, apiVersion: 3 } },
  [`${P}HorizontalPodAutoscalerBehavior`]: { tags: { scaleUp: 1, scaleDown: 2 } },
  [`${P}HPAScalingRules`]: {
    tags: { selectPolicy: 1, policies: 2, stabilizationWindowSeconds: 3 },
    pointers: ['selectPolicy', 'stabilizationWindowSeconds'],
  },
  [`${P}HPAScalingPolicy`]: { tags: { type: 1, value: 2, periodSeconds: 3 } },
  [`${P}MetricSpec`]: { tags: { type: 1, object: 2, pods: 3, resource: 4, external: 5, containerResource: 7 } },
  [`${P}ContainerResourceMetricSource`]: { tags: { name: 1, target: 2, container: 3 } },
  [`${P}ExternalMetricSource`]: { tags: { metric: 1, target: 2 } },
  [`${P}ObjectMetricSource`]: { tags: { describedObject: 1, target: 2, metric: 3 } },
  [`${P}PodsMetricSource`]: { tags: { metric: 1, target: 2 } },
  [`${P}ResourceMetricSource`]: { tags: { name: 1, target: 2 } },
  [`${P}MetricIdentifier`]: { tags: { name: 1, selector: 2 } },
  [`${P}MetricTarget`]: { tags: { type: 1, value: 2, averageValue: 3, averageUtilization: 4 }, pointers: ['averageUtilization'] },
  [`${P}HorizontalPodAutoscalerStatus`]: {
    tags: { observedGeneration: 1, lastScaleTime: 2, currentReplicas: 3, desiredReplicas: 4, currentMetrics: 5, conditions: 6 },
    pointers: ['observedGeneration'],
  },
  [`${P}HorizontalPodAutoscalerCondition`]: { tags: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 } },
  [`${P}MetricStatus`]: { tags: { type: 1, object: 2, pods: 3, resource: 4, external: 5, containerResource: 7 } },
  [`${P}ContainerResourceMetricStatus`]: { tags: { name: 1, current: 2, container: 3 } },
  [`${P}ExternalMetricStatus`]: { tags: { metric: 1, current: 2 } },
  [`${P}ObjectMetricStatus`]: { tags: { metric: 1, current: 2, describedObject: 3 } },
  [`${P}PodsMetricStatus`]: { tags: { metric: 1, current: 2 } },
  [`${P}ResourceMetricStatus`]: { tags: { name: 1, current: 2 } },
  [`${P}MetricValueStatus`]: { tags: { value: 1, averageValue: 2, averageUtilization: 3 }, pointers: ['averageUtilization'] },
};
