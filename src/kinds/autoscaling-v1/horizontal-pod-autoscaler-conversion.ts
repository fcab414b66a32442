import { badRequest } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { VersionConversion } from '../define/kind-definition.js';
import {
  behaviorFromAnnotation,
  behaviorToAnnotation,
  metricSpecFromV1,
  metricSpecToV1,
  metricStatusFromV1,
  metricStatusToV1,
} from './metric-conversion.js';

/**
 * autoscaling/v1 ↔ v2 HorizontalPodAutoscalers, as pkg/apis/autoscaling/v1/conversion.go converts them through
 * the internal version: v1 has one CPU utilization target; everything else a v2 object holds travels in the
 * `autoscaling.alpha.kubernetes.io/*` annotations, so a v1 client's read-modify-write keeps it.
 */

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
/** The annotations only conversion writes; the internal version never keeps them. */
const ROUND_TRIP = [METRICS, BEHAVIOR, CURRENT_METRICS, CONDITIONS];
const DEFAULT_CPU_UTILIZATION = 80;

type Json = Record<string, unknown>;

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** The metric v1's targetCPUUtilizationPercentage stands for: a CPU Resource metric with a utilization target. */
function isCpuUtilization(metric: Json): boolean {
  const resource = metric.resource;
  return (
    metric.type === 'Resource' &&
    isObject(resource) &&
    resource.name === 'cpu' &&
    isObject(resource.target) &&
    typeof resource.target.averageUtilization === 'number'
  );
}

function cpuMetric(utilization: unknown): Json {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } };
}

function conditionToV1(condition: Json): Json {
  const out: Json = { type: condition.type, status: condition.status, lastTransitionTime: condition.lastTransitionTime ?? null };
  if (condition.reason !== undefined && condition.reason !== '') out.reason = condition.reason;
  if (condition.message !== undefined && condition.message !== '') out.message = condition.message;
  return out;
}

function withoutRoundTripAnnotations(metadata: KubeObject['metadata']): KubeObject['metadata'] {
  const meta = structuredClone(metadata);
  if (meta.annotations === undefined) return meta;
  for (const key of ROUND_TRIP) delete meta.annotations[key];
  if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
  return meta;
}

/** A v2 (stored) HPA as autoscaling/v1 serves it. */
export function horizontalPodAutoscalerToV1(hpa: KubeObject): KubeObject {
  const spec = isObject(hpa.spec) ? hpa.spec : {};
  const status = isObject(hpa.status) ? hpa.status : {};
  const metrics = list(spec.metrics);
  const currentMetrics = list(status.currentMetrics);
  const conditions = list(status.conditions);
  const metadata = withoutRoundTripAnnotations(hpa.metadata);
  const annotations: Record<string, string> = { ...metadata.annotations };
  const others = metrics.filter((m) => !isCpuUtilization(m)).map(metricSpecToV1);
  if (others.length > 0) annotations[METRICS] = JSON.stringify(others);
  if (currentMetrics.length > 0) annotations[CURRENT_METRICS] = JSON.stringify(currentMetrics.map(metricStatusToV1));
  if (isObject(spec.behavior)) annotations[BEHAVIOR] = JSON.stringify(behaviorToAnnotation(spec.behavior));
  if (conditions.length > 0) annotations[CONDITIONS] = JSON.stringify(conditions.map(conditionToV1));
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;

  const v1Spec: Json = { scaleTargetRef: spec.scaleTargetRef ?? {} };
  if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
  v1Spec.maxReplicas = spec.maxReplicas ?? 0;
  const cpu = metrics.find(isCpuUtilization);
  if (cpu !== undefined) v1Spec.targetCPUUtilizationPercentage = (cpu.resource as { target: Json }).target.averageUtilization;

  const v1Status: Json = {};
  if (status.observedGeneration !== undefined) v1Status.observedGeneration = status.observedGeneration;
  if (status.lastScaleTime !== undefined) v1Status.lastScaleTime = status.lastScaleTime;
  v1Status.currentReplicas = status.currentReplicas ?? 0;
  v1Status.desiredReplicas = status.desiredReplicas ?? 0;
  for (const metric of currentMetrics) {
    const resource = metric.resource;
    if (metric.type !== 'Resource' || !isObject(resource) || resource.name !== 'cpu' || !isObject(resource.current)) continue;
    if (typeof resource.current.averageUtilization === 'number')
      v1Status.currentCPUUtilizationPercentage = resource.current.averageUtilization;
  }
  return { apiVersion: 'autoscaling/v1', kind: hpa.kind, metadata, spec: v1Spec, status: v1Status };
}

function parseAnnotation(annotations: Record<string, string> | undefined, key: string): unknown {
  const text = annotations?.[key];
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`annotation ${key}: ${(err as Error).message}`);
  }
}

/** An autoscaling/v1 HPA in the v2 form it is stored in. */
export function horizontalPodAutoscalerFromV1(hpa: KubeObject): KubeObject {
  const spec = isObject(hpa.spec) ? hpa.spec : {};
  const status = isObject(hpa.status) ? hpa.status : {};
  const annotations = hpa.metadata.annotations;
  const v2Spec: Json = { scaleTargetRef: spec.scaleTargetRef };
  if (spec.minReplicas !== undefined) v2Spec.minReplicas = spec.minReplicas;
  v2Spec.maxReplicas = spec.maxReplicas;
  const cpu = typeof spec.targetCPUUtilizationPercentage === 'number' ? [cpuMetric(spec.targetCPUUtilizationPercentage)] : [];
  const others = list(parseAnnotation(annotations, METRICS)).map(metricSpecFromV1);
  // Other metrics first, then the CPU target, as the conversion appends the spec's one metric after the annotation's.
  const metrics = [...others, ...cpu];
  v2Spec.metrics = metrics.length > 0 ? metrics : [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const behavior = parseAnnotation(annotations, BEHAVIOR);
  if (isObject(behavior)) v2Spec.behavior = behaviorFromAnnotation(behavior);

  const v2Status: Json = {};
  if (status.observedGeneration !== undefined) v2Status.observedGeneration = status.observedGeneration;
  if (status.lastScaleTime !== undefined) v2Status.lastScaleTime = status.lastScaleTime;
  if (status.currentReplicas !== undefined) v2Status.currentReplicas = status.currentReplicas;
  if (status.desiredReplicas !== undefined) v2Status.desiredReplicas = status.desiredReplicas;
  const annotatedCurrent = parseAnnotation(annotations, CURRENT_METRICS);
  if (annotatedCurrent !== undefined) v2Status.currentMetrics = list(annotatedCurrent).map(metricStatusFromV1);
  else if (typeof status.currentCPUUtilizationPercentage === 'number') {
    v2Status.currentMetrics = [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } },
    ];
  }
  const conditions = parseAnnotation(annotations, CONDITIONS);
  if (conditions !== undefined) v2Status.conditions = list(conditions);

  const out: KubeObject = {
    apiVersion: 'autoscaling/v2',
    kind: hpa.kind,
    metadata: withoutRoundTripAnnotations(hpa.metadata),
    spec: v2Spec,
  };
  if (hpa.status !== undefined) out.status = v2Status;
  return out;
}

export const HPA_V1_CONVERSION: VersionConversion = {
  storageVersion: 'v2',
  toStorage: horizontalPodAutoscalerFromV1,
  fromStorage: horizontalPodAutoscalerToV1,
};
