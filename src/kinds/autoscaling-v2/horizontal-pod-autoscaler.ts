import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer, text } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import { horizontalPodAutoscalerFromV1 } from '../autoscaling-v1/horizontal-pod-autoscaler-conversion.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import { defaultHorizontalPodAutoscaler } from './horizontal-pod-autoscaler-defaults.js';
import { HPA_DEFINITIONS, HPA_FIELD_NUMBERS } from './horizontal-pod-autoscaler-schema.js';
import { hpaTargetsCell } from './horizontal-pod-autoscaler-targets.js';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
} from './horizontal-pod-autoscaler-validation.js';

/** Column descriptions: the swagger docs of the fields, as the Go printer reports them. */
const DOC = {
  scaleTargetRef:
    'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
  metrics:
    'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.',
  minReplicas:
    'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
  maxReplicas:
    'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
  currentReplicas: 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
};

/**
 * autoscaling/v2 HorizontalPodAutoscaler. A create starts with an empty status, which Go serves as
 * `{desiredReplicas: 0, currentMetrics: null}` (neither field is omitempty); spec writes keep the status and /status writes keep the spec, as the registry's strategies do.
 */
export const HORIZONTAL_POD_AUTOSCALER: KindDefinition = {
  resource: resourceInfo({
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: [STATUS],
  }),
  strategy: {
    initialStatus: () => ({}),
    statusZeroValues: { desiredReplicas: 0, currentMetrics: null },
    defaults: defaultHorizontalPodAutoscaler,
    validate: validateHorizontalPodAutoscaler,
    validateUpdate: validateHorizontalPodAutoscalerUpdate,
    validateStatusUpdate: validateHorizontalPodAutoscalerStatusUpdate,
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      column('Reference', 'string', DOC.scaleTargetRef),
      column('Targets', 'string', DOC.metrics),
      column('MinPods', 'string', DOC.minReplicas),
      column('MaxPods', 'integer', DOC.maxReplicas),
      column('Replicas', 'integer', DOC.currentReplicas),
      AGE_COLUMN,
    ],
    row: (served, now) => {
      // A Table asked of autoscaling/v1 lists v1 objects (list items carry no apiVersion; v1 has no spec.metrics,
      // which v2 always has once defaulted); the columns read the v2 form both are stored as.
      const hpa = Array.isArray(get(served, 'spec', 'metrics')) ? served : horizontalPodAutoscalerFromV1(served);
      const min = get(hpa, 'spec', 'minReplicas');
      return [
        hpa.metadata.name ?? '',
        `${text(get(hpa, 'spec', 'scaleTargetRef', 'kind'))}/${text(get(hpa, 'spec', 'scaleTargetRef', 'name'))}`,
        hpaTargetsCell(get(hpa, 'spec', 'metrics'), get(hpa, 'status', 'currentMetrics')),
        typeof min === 'number' ? String(min) : '<unset>',
        integer(get(hpa, 'spec', 'maxReplicas')),
        integer(get(hpa, 'status', 'currentReplicas')),
        age(hpa.metadata.creationTimestamp, now),
      ];
    },
  },
  definitions: HPA_DEFINITIONS,
  fieldNumbers: HPA_FIELD_NUMBERS,
};
