import { isObject } from '../../api/types.js';

/**
 * autoscaling/v1 keeps what its HPA cannot express in annotations, in the older (v2beta1-shaped) metric types of
 * the v1 package: a source names its metric and target inline (`targetAverageUtilization`, `targetValue`…) where
 * autoscaling/v2 has a MetricIdentifier and a MetricTarget. These convert one metric or metric status between the
 * two shapes, in the field order Go marshals the v1 structs.
 */

type Json = Record<string, unknown>;

const ZERO_QUANTITY = '0';

/** Copies the defined entries in order: Go's omitempty leaves unset pointers out. */
function compact(entries: readonly (readonly [string, unknown])[]): Json {
  const out: Json = {};
  for (const [key, value] of entries) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

const obj = (value: unknown): Json => (isObject(value) ? value : {});

function metricIdentifier(name: unknown, selector: unknown): Json {
  return compact([
    ['name', name ?? ''],
    ['selector', selector],
  ]);
}

/** A v2 MetricSpec as the v1 annotation carries it. */
export function metricSpecToV1(metric: Json): Json {
  const type = metric.type;
  const out: Json = { type };
  if (isObject(metric.object)) {
    const source = metric.object;
    const target = obj(source.target);
    const id = obj(source.metric);
    out.object = compact([
      ['target', source.describedObject ?? {}],
      ['metricName', id.name ?? ''],
      ['targetValue', target.value ?? ZERO_QUANTITY],
      ['selector', id.selector],
      ['averageValue', target.averageValue],
    ]);
  }
  if (isObject(metric.pods)) {
    const id = obj(metric.pods.metric);
    out.pods = compact([
      ['metricName', id.name ?? ''],
      ['targetAverageValue', obj(metric.pods.target).averageValue ?? ZERO_QUANTITY],
      ['selector', id.selector],
    ]);
  }
  if (isObject(metric.resource)) {
    const target = obj(metric.resource.target);
    out.resource = compact([
      ['name', metric.resource.name ?? ''],
      ['targetAverageUtilization', target.averageUtilization],
      ['targetAverageValue', target.averageValue],
    ]);
  }
  if (isObject(metric.containerResource)) {
    const source = metric.containerResource;
    const target = obj(source.target);
    out.containerResource = compact([
      ['name', source.name ?? ''],
      ['targetAverageUtilization', target.averageUtilization],
      ['targetAverageValue', target.averageValue],
      ['container', source.container ?? ''],
    ]);
  }
  if (isObject(metric.external)) {
    const id = obj(metric.external.metric);
    const target = obj(metric.external.target);
    out.external = compact([
      ['metricName', id.name ?? ''],
      ['metricSelector', id.selector],
      ['targetValue', target.value],
      ['targetAverageValue', target.averageValue],
    ]);
  }
  return out;
}

/** A v1 annotation's metric as autoscaling/v2 has it; the target type follows from which value is set. */
export function metricSpecFromV1(metric: Json): Json {
  const out: Json = { type: metric.type };
  if (isObject(metric.object)) {
    const source = metric.object;
    out.object = {
      describedObject: source.target ?? {},
      metric: metricIdentifier(source.metricName, source.selector),
      target: compact([
        ['type', source.averageValue === undefined || source.averageValue === null ? 'Value' : 'AverageValue'],
        ['value', source.targetValue ?? ZERO_QUANTITY],
        ['averageValue', source.averageValue],
      ]),
    };
  }
  if (isObject(metric.pods)) {
    out.pods = {
      metric: metricIdentifier(metric.pods.metricName, metric.pods.selector),
      target: { type: 'AverageValue', averageValue: metric.pods.targetAverageValue ?? ZERO_QUANTITY },
    };
  }
  if (isObject(metric.resource)) out.resource = { name: metric.resource.name ?? '', target: resourceTarget(metric.resource) };
  if (isObject(metric.containerResource)) {
    const source = metric.containerResource;
    out.containerResource = { name: source.name ?? '', target: resourceTarget(source), container: source.container ?? '' };
  }
  if (isObject(metric.external)) {
    const source = metric.external;
    out.external = {
      metric: metricIdentifier(source.metricName, source.metricSelector),
      target: compact([
        ['type', source.targetValue === undefined || source.targetValue === null ? 'AverageValue' : 'Value'],
        ['value', source.targetValue],
        ['averageValue', source.targetAverageValue],
      ]),
    };
  }
  return out;
}

function resourceTarget(source: Json): Json {
  const utilization = source.targetAverageUtilization;
  return compact([
    ['type', utilization === undefined || utilization === null ? 'AverageValue' : 'Utilization'],
    ['averageValue', source.targetAverageValue],
    ['averageUtilization', utilization],
  ]);
}

/** A v2 MetricStatus as the v1 `current-metrics` annotation carries it. */
export function metricStatusToV1(status: Json): Json {
  const out: Json = { type: status.type };
  if (isObject(status.object)) {
    const source = status.object;
    const current = obj(source.current);
    const id = obj(source.metric);
    out.object = compact([
      ['target', source.describedObject ?? {}],
      ['metricName', id.name ?? ''],
      ['currentValue', current.value ?? ZERO_QUANTITY],
      ['selector', id.selector],
      ['averageValue', current.averageValue],
    ]);
  }
  if (isObject(status.pods)) {
    const id = obj(status.pods.metric);
    out.pods = compact([
      ['metricName', id.name ?? ''],
      ['currentAverageValue', obj(status.pods.current).averageValue ?? ZERO_QUANTITY],
      ['selector', id.selector],
    ]);
  }
  if (isObject(status.resource)) {
    const current = obj(status.resource.current);
    out.resource = compact([
      ['name', status.resource.name ?? ''],
      ['currentAverageUtilization', current.averageUtilization],
      ['currentAverageValue', current.averageValue ?? ZERO_QUANTITY],
    ]);
  }
  if (isObject(status.containerResource)) {
    const source = status.containerResource;
    const current = obj(source.current);
    out.containerResource = compact([
      ['name', source.name ?? ''],
      ['currentAverageUtilization', current.averageUtilization],
      ['currentAverageValue', current.averageValue ?? ZERO_QUANTITY],
      ['container', source.container ?? ''],
    ]);
  }
  if (isObject(status.external)) {
    const id = obj(status.external.metric);
    const current = obj(status.external.current);
    out.external = compact([
      ['metricName', id.name ?? ''],
      ['metricSelector', id.selector],
      ['currentValue', current.value ?? ZERO_QUANTITY],
      ['currentAverageValue', current.averageValue],
    ]);
  }
  return out;
}

/** A v1 annotation's metric status as autoscaling/v2 has it. */
export function metricStatusFromV1(status: Json): Json {
  const out: Json = { type: status.type };
  if (isObject(status.object)) {
    const source = status.object;
    out.object = {
      metric: metricIdentifier(source.metricName, source.selector),
      current: compact([
        ['value', source.currentValue],
        ['averageValue', source.averageValue],
      ]),
      describedObject: source.target ?? {},
    };
  }
  if (isObject(status.pods)) {
    out.pods = {
      metric: metricIdentifier(status.pods.metricName, status.pods.selector),
      current: compact([['averageValue', status.pods.currentAverageValue]]),
    };
  }
  if (isObject(status.resource)) out.resource = { name: status.resource.name ?? '', current: resourceCurrent(status.resource) };
  if (isObject(status.containerResource)) {
    const source = status.containerResource;
    out.containerResource = { name: source.name ?? '', current: resourceCurrent(source), container: source.container ?? '' };
  }
  if (isObject(status.external)) {
    const source = status.external;
    out.external = {
      metric: metricIdentifier(source.metricName, source.metricSelector),
      current: compact([
        ['value', source.currentValue],
        ['averageValue', source.currentAverageValue],
      ]),
    };
  }
  return out;
}

function resourceCurrent(source: Json): Json {
  return compact([
    ['averageValue', source.currentAverageValue],
    ['averageUtilization', source.currentAverageUtilization],
  ]);
}

/**
 * The behavior annotation holds Go's JSON of the internal (untagged) type, so its keys are the Go field names, and
 * unset pointers are written as null.
 */
export function behaviorToAnnotation(behavior: Json): Json {
  const rules = (value: unknown): Json | null => {
    if (!isObject(value)) return null;
    const policies = Array.isArray(value.policies)
      ? value.policies.map((p) => {
          const policy = obj(p);
          return { Type: policy.type ?? '', Value: policy.value ?? 0, PeriodSeconds: policy.periodSeconds ?? 0 };
        })
      : null;
    return {
      StabilizationWindowSeconds: value.stabilizationWindowSeconds ?? null,
      SelectPolicy: value.selectPolicy ?? null,
      Policies: policies,
    };
  };
  return { ScaleUp: rules(behavior.scaleUp), ScaleDown: rules(behavior.scaleDown) };
}

/** The behavior annotation read back into autoscaling/v2's shape. */
export function behaviorFromAnnotation(annotation: Json): Json {
  const rules = (value: unknown): Json | undefined => {
    if (!isObject(value)) return undefined;
    const policies = Array.isArray(value.Policies)
      ? value.Policies.map((p) => {
          const policy = obj(p);
          return { type: policy.Type, value: policy.Value, periodSeconds: policy.PeriodSeconds };
        })
      : undefined;
    return compact([
      ['stabilizationWindowSeconds', value.StabilizationWindowSeconds],
      ['selectPolicy', value.SelectPolicy],
      ['policies', policies],
    ]);
  };
  return compact([
    ['scaleUp', rules(annotation.ScaleUp)],
    ['scaleDown', rules(annotation.ScaleDown)],
  ]);
}
