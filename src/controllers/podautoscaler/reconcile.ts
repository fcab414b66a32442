import { isObject, type KubeObject } from '../../api/types.js';

/**
 * One pass of the HPA controller (pkg/controller/podautoscaler/horizontal.go, reconcileAutoscaler) on a cluster
 * without a metrics API: no metric can ever be read, so the replica count only moves to bring the target inside
 * [minReplicas, maxReplicas] (or from 0 to 1), and every in-range pass reports why it cannot compute more. Pure:
 * the controller reads the target and applies the outcome.
 */

type Json = Record<string, unknown>;

/** What the target's scale subresource reports, or why it could not be read. */
export type TargetScale =
  | { readonly specReplicas: number; readonly statusReplicas: number; readonly selector: string }
  | { readonly error: string };

export interface HpaEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface HpaOutcome {
  /** The new status (the caller writes it only when it differs). */
  readonly status: Json;
  /** The replica count to write to the target's scale, when it changes. */
  readonly scaleTo?: number;
  readonly events: readonly HpaEvent[];
}

interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

const NO_RESOURCE_METRICS = 'no metrics returned from resource metrics API';
const NO_CUSTOM_METRICS = 'no custom metrics API (custom.metrics.k8s.io) registered';
const NO_EXTERNAL_METRICS = 'no external metrics API (external.metrics.k8s.io) registered';

interface MetricFailure {
  /** The event and ScalingActive condition reason. */
  readonly reason: string;
  /** The metric's own error: the event message and the condition's cause. */
  readonly message: string;
  /** The error as computeReplicasForMetric wraps it, for the aggregate. */
  readonly wrapped: string;
}

/** Why reading one metric fails when no metrics API is served, in the words of the replica calculator. */
function metricFailure(metric: Json): MetricFailure {
  const target = (source: unknown): Json => (isObject(source) && isObject(source.target) ? source.target : {});
  const metricName = (source: unknown): string => (isObject(source) && isObject(source.metric) ? String(source.metric.name ?? '') : '');
  switch (metric.type) {
    case 'Resource':
    case 'ContainerResource': {
      const source = metric.type === 'Resource' ? metric.resource : metric.containerResource;
      const name = isObject(source) ? String(source.name ?? '') : '';
      const utilization = target(source).type === 'Utilization';
      const what = utilization ? 'utilization' : 'usage';
      const message = `failed to get ${name} ${what}: unable to get metrics for resource ${name}: ${NO_RESOURCE_METRICS}`;
      const container = metric.type === 'ContainerResource' ? 'container ' : '';
      return {
        reason: metric.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric',
        message,
        wrapped: `failed to get ${name} ${container}resource metric value: ${message}`,
      };
    }
    case 'Pods': {
      const message = `unable to get metric ${metricName(metric.pods)}: unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS}`;
      return { reason: 'FailedGetPodsMetric', message, wrapped: `failed to get pods metric value: ${message}` };
    }
    case 'Object': {
      const message = `unable to get metric ${metricName(metric.object)}: unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS}`;
      return { reason: 'FailedGetObjectMetric', message, wrapped: `failed to get object metric value: ${message}` };
    }
    case 'External': {
      const message = `unable to get external metric ${metricName(metric.external)}: unable to fetch metrics from external metrics API: ${NO_EXTERNAL_METRICS}`;
      return { reason: 'FailedGetExternalMetric', message, wrapped: `failed to get external metric value: ${message}` };
    }
    default:
      return {
        reason: 'InvalidMetricSourceType',
        message: `unknown metric source type "${String(metric.type)}"`,
        wrapped: `unknown metric source type "${String(metric.type)}"`,
      };
  }
}

/** The conditions with one set: the transition time moves only when the status changes (setConditionInList). */
function setCondition(conditions: Json[], condition: Condition, now: string): Json[] {
  const existing = conditions.find((c) => c.type === condition.type);
  const lastTransitionTime = existing !== undefined && existing.status === condition.status ? existing.lastTransitionTime : now;
  const next = { type: condition.type, status: condition.status, lastTransitionTime, reason: condition.reason, message: condition.message };
  return existing === undefined ? [...conditions, next] : conditions.map((c) => (c === existing ? next : c));
}

export function reconcileHpa(hpa: KubeObject, target: TargetScale, now: string): HpaOutcome {
  const spec = isObject(hpa.spec) ? hpa.spec : {};
  const oldStatus = isObject(hpa.status) ? hpa.status : {};
  const minReplicas = typeof spec.minReplicas === 'number' ? spec.minReplicas : 1;
  const maxReplicas = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  const metrics = Array.isArray(spec.metrics) ? spec.metrics.filter(isObject) : [];
  let conditions = Array.isArray(oldStatus.conditions) ? oldStatus.conditions.filter(isObject) : [];
  const events: HpaEvent[] = [];
  const status = (current: number, desired: number, currentMetrics: Json[] | null, rescaled: boolean): Json => {
    const out: Json = {};
    if (hpa.metadata.generation !== undefined) out.observedGeneration = hpa.metadata.generation;
    const lastScaleTime = rescaled ? now : oldStatus.lastScaleTime;
    if (lastScaleTime !== undefined) out.lastScaleTime = lastScaleTime;
    if (current !== 0) out.currentReplicas = current;
    out.desiredReplicas = desired;
    out.currentMetrics = currentMetrics;
    out.conditions = conditions;
    return out;
  };

  if ('error' in target) {
    const message = `the HPA controller was unable to get the target's current scale: ${target.error}`;
    events.push({ type: 'Warning', reason: 'FailedGetScale', message: target.error });
    conditions = setCondition(conditions, { type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message }, now);
    const current = typeof oldStatus.currentReplicas === 'number' ? oldStatus.currentReplicas : 0;
    const desired = typeof oldStatus.desiredReplicas === 'number' ? oldStatus.desiredReplicas : 0;
    return { status: status(current, desired, (oldStatus.currentMetrics as Json[] | null) ?? null, false), events };
  }
  conditions = setCondition(
    conditions,
    {
      type: 'AbleToScale',
      status: 'True',
      reason: 'SucceededGetScale',
      message: "the HPA controller was able to get the target's current scale",
    },
    now,
  );
  const current = target.statusReplicas;
  let desired: number;
  let reason = '';
  if (target.specReplicas === 0 && minReplicas !== 0) {
    conditions = setCondition(
      conditions,
      {
        type: 'ScalingActive',
        status: 'False',
        reason: 'ScalingDisabled',
        message: 'scaling is disabled since the replica count of the target is zero',
      },
      now,
    );
    return { status: status(current, 0, null, false), events };
  }
  if (current > maxReplicas) {
    reason = 'Current number of replicas above Spec.MaxReplicas';
    desired = maxReplicas;
  } else if (current < minReplicas) {
    reason = 'Current number of replicas below Spec.MinReplicas';
    desired = minReplicas;
  } else if (current === 0) {
    reason = 'Current number of replicas must be greater than 0';
    desired = 1;
  } else {
    return { status: metricsUnavailable(target.selector), events };
  }
  if (desired === current) return { status: status(current, desired, null, false), events };
  events.push({ type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${desired}; reason: ${reason}` });
  conditions = setCondition(
    conditions,
    {
      type: 'AbleToScale',
      status: 'True',
      reason: 'SucceededRescale',
      message: `the HPA controller was able to update the target scale to ${desired}`,
    },
    now,
  );
  return { status: status(current, desired, null, true), scaleTo: desired, events };

  /** Every metric fails: the status keeps the count, one empty entry per metric, and ScalingActive False. */
  function metricsUnavailable(selector: string): Json {
    if (selector === '') {
      events.push({ type: 'Warning', reason: 'SelectorRequired', message: 'selector is required' });
      conditions = setCondition(
        conditions,
        { type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message: "the HPA target's scale is missing a selector" },
        now,
      );
    } else {
      const failures = metrics.map(metricFailure);
      for (const failure of failures) events.push({ type: 'Warning', reason: failure.reason, message: failure.message });
      const first = failures[0];
      if (first !== undefined) {
        conditions = setCondition(
          conditions,
          {
            type: 'ScalingActive',
            status: 'False',
            reason: first.reason,
            message: `the HPA was unable to compute the replica count: ${first.message}`,
          },
          now,
        );
        events.push({
          type: 'Warning',
          reason: 'FailedComputeMetricsReplicas',
          message: `invalid metrics (${failures.length} invalid out of ${failures.length}), first error is: ${first.wrapped}`,
        });
      }
    }
    const desired = typeof oldStatus.desiredReplicas === 'number' ? oldStatus.desiredReplicas : 0;
    return status(
      current,
      desired,
      metrics.map(() => ({ type: '' })),
      false,
    );
  }
}
