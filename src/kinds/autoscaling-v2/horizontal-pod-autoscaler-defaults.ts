import { isObject, type KubeObject } from '../../api/types.js';

/**
 * SetDefaults_HorizontalPodAutoscaler of pkg/apis/autoscaling/v2: minReplicas 1, an 80% average CPU utilization
 * metric when none is given, and, only when behavior is set, every unset rule of both directions filled in. The
 * scale-down stabilization window stays unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization
 * flag decides it.
 */

const DEFAULT_CPU_UTILIZATION = 80;

const scaleUpRules = (): Record<string, unknown> => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});

const scaleDownRules = (): Record<string, unknown> => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** The given rules with their unset (null or absent) fields taken from the defaults. */
function withDefaults(rules: unknown, defaults: Record<string, unknown>): Record<string, unknown> {
  if (!isObject(rules)) return defaults;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) {
    if (rules[key] === undefined || rules[key] === null) {
      if (key in defaults) rules[key] = defaults[key];
      else delete rules[key];
    }
  }
  return rules;
}

export function defaultHorizontalPodAutoscaler(hpa: KubeObject): void {
  if (!isObject(hpa.spec)) hpa.spec = {};
  const spec = hpa.spec as Record<string, unknown>;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } },
    ];
  }
  if (isObject(spec.behavior)) {
    spec.behavior.scaleUp = withDefaults(spec.behavior.scaleUp, scaleUpRules());
    spec.behavior.scaleDown = withDefaults(spec.behavior.scaleDown, scaleDownRules());
  }
}
