import { int32, int64, kindDefinition, listDefinition, ref, str, TIME } from '../../openapi/builders/group-builders.js';
import type { Definitions } from '../../openapi/schema.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { HPA_V1_CONVERSION } from './horizontal-pod-autoscaler-conversion.js';

const P = 'io.k8s.api.autoscaling.v1.';

const DEFINITIONS: Definitions = {
  [`${P}HorizontalPodAutoscaler`]: kindDefinition({
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
    description: 'configuration of a horizontal pod autoscaler.',
    properties: {
      spec: ref(`${P}HorizontalPodAutoscalerSpec`, 'The desired autoscaling behaviour.'),
      status: ref(`${P}HorizontalPodAutoscalerStatus`, 'What the autoscaler last observed and decided.'),
    },
  }),
  [`${P}HorizontalPodAutoscalerList`]: listDefinition('autoscaling', 'v1', 'HorizontalPodAutoscaler', `${P}HorizontalPodAutoscaler`),
  [`${P}HorizontalPodAutoscalerSpec`]: {
    type: 'object',
    description: 'specification of a horizontal pod autoscaler.',
    properties: {
      maxReplicas: int32('Upper bound of the replica count; not below minReplicas.'),
      minReplicas: int32('Lower bound of the replica count; defaults to 1.'),
      scaleTargetRef: ref(`${P}CrossVersionObjectReference`, 'The resource whose scale subresource is driven.'),
      targetCPUUtilizationPercentage: int32('Target average CPU utilization over all pods, as a percentage of the requested CPU.'),
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
  [`${P}HorizontalPodAutoscalerStatus`]: {
    type: 'object',
    description: 'current status of a horizontal pod autoscaler',
    properties: {
      currentCPUUtilizationPercentage: int32('Current average CPU utilization over all pods, as a percentage of the requested CPU.'),
      currentReplicas: int32('Replicas last seen.'),
      desiredReplicas: int32('Replicas last computed.'),
      lastScaleTime: ref(TIME, 'When the autoscaler last changed the replica count.'),
      observedGeneration: int64('The generation this status describes.'),
    },
    required: ['currentReplicas', 'desiredReplicas'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}HorizontalPodAutoscaler`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}HorizontalPodAutoscalerList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}HorizontalPodAutoscalerSpec`]: {
    tags: { scaleTargetRef: 1, minReplicas: 2, maxReplicas: 3, targetCPUUtilizationPercentage: 4 },
    pointers: ['minReplicas', 'targetCPUUtilizationPercentage'],
  },
  [`${P}CrossVersionObjectReference`]: { tags: { kind: 1, name: 2, apiVersion: 3 } },
  [`${P}HorizontalPodAutoscalerStatus`]: {
    tags: { observedGeneration: 1, lastScaleTime: 2, currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 5 },
    pointers: ['observedGeneration', 'currentCPUUtilizationPercentage'],
  },
};

/**
 * autoscaling/v1 HorizontalPodAutoscaler: the same resource as autoscaling/v2's, stored once at v2 and served here
 * through the conversion (what `kubectl autoscale` posts in kubectl 1.32).
 */
export const HORIZONTAL_POD_AUTOSCALER_V1: KindDefinition = {
  resource: resourceInfo({
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  conversion: HPA_V1_CONVERSION,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
