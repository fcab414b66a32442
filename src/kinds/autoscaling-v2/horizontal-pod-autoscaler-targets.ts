import { isObject } from '../../api/types.js';

/**
 * The TARGETS cell of `kubectl get hpa` (formatHPAMetrics of pkg/printers/internalversion): "current/target" per
 * metric, resources prefixed with their name, "<unknown>" until the controller reports a value; two metrics at most,
 * then "+ N more...".
 */

const MAX_SHOWN = 2;

const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});
const present = (value: unknown): boolean => value !== undefined && value !== null;
const quantity = (value: unknown): string => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '0');

/** Object and External metrics: an average value is marked "(avg)". */
function valueOrAverage(target: Record<string, unknown>, current: Record<string, unknown> | undefined): string {
  if (present(target.averageValue)) {
    const now = current !== undefined && present(current.averageValue) ? quantity(current.averageValue) : '<unknown>';
    return `${now}/${quantity(target.averageValue)} (avg)`;
  }
  const now = current !== undefined ? quantity(current.value) : '<unknown>';
  return `${now}/${quantity(target.value)}`;
}

/** Resource and ContainerResource metrics: an average value, or a utilization percentage. */
function resourceTarget(name: unknown, target: Record<string, unknown>, current: Record<string, unknown> | undefined): string {
  const prefix = typeof name === 'string' ? name : '';
  if (present(target.averageValue)) {
    const now = current !== undefined ? quantity(current.averageValue) : '<unknown>';
    return `${prefix}: ${now}/${quantity(target.averageValue)}`;
  }
  const now = current !== undefined && typeof current.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>';
  const goal = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
  return `${prefix}: ${now}/${goal}`;
}

function metricTarget(spec: Record<string, unknown>, status: Record<string, unknown> | undefined): string {
  const sourceStatus = (field: string): Record<string, unknown> | undefined =>
    status !== undefined && isObject(status[field]) ? record(record(status[field]).current) : undefined;
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const field = spec.type === 'External' ? 'external' : 'object';
      return valueOrAverage(record(record(spec[field]).target), sourceStatus(field));
    }
    case 'Pods': {
      const current = sourceStatus('pods');
      return `${current !== undefined ? quantity(current.averageValue) : '<unknown>'}/${quantity(record(record(spec.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const field = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const source = record(spec[field]);
      return resourceTarget(source.name, record(source.target), sourceStatus(field));
    }
    default:
      return '<unknown type>';
  }
}

export function hpaTargetsCell(metrics: unknown, currentMetrics: unknown): string {
  const specs = Array.isArray(metrics) ? metrics : [];
  if (specs.length === 0) return '<none>';
  const statuses = Array.isArray(currentMetrics) ? currentMetrics : [];
  const cells = specs.map((spec, i) => metricTarget(record(spec), isObject(statuses[i]) ? statuses[i] : undefined));
  if (cells.length <= MAX_SHOWN) return cells.join(', ');
  return `${cells.slice(0, MAX_SHOWN).join(', ')} + ${cells.length - MAX_SHOWN} more...`;
}
