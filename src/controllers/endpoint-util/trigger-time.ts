import type { KubeObject } from '../../api/types.js';
import { objects, record } from './pods.js';

interface ServiceState {
  readonly podTimes: Map<string, number>;
  readonly serviceTime: number;
}

const parse = (value: unknown): number => {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
};

/** A pod's trigger time: when its Ready condition last changed (0: unknown). */
function podTriggerTime(pod: KubeObject): number {
  const ready = objects(record(pod.status).conditions).find((c) => c.type === 'Ready');
  return ready === undefined ? 0 : parse(ready.lastTransitionTime);
}

/**
 * TriggerTimeTracker: the `endpoints.kubernetes.io/last-change-trigger-time` of a sync (R12.134): the Service's
 * creation for a Service seen for the first time, otherwise the earliest trigger time (pod readiness transitions,
 * the Service's creation) that moved since the previous sync; 0 when none did, which clears the annotation.
 */
export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  compute(key: string, service: KubeObject, pods: readonly KubeObject[]): number {
    const previous = this.states.get(key);
    let earliest = 0;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const time = podTriggerTime(pod);
      if (time === 0) continue;
      const name = pod.metadata.name ?? '';
      podTimes.set(name, time);
      if (time > (previous?.podTimes.get(name) ?? 0) && (earliest === 0 || time < earliest)) earliest = time;
    }
    const serviceTime = parse(service.metadata.creationTimestamp);
    if (serviceTime > (previous?.serviceTime ?? 0) && (earliest === 0 || serviceTime < earliest)) earliest = serviceTime;
    this.states.set(key, { podTimes, serviceTime });
    return previous === undefined ? serviceTime : earliest;
  }

  deleteService(key: string): void {
    this.states.delete(key);
  }
}

/** time.RFC3339Nano in UTC: fractional seconds only when non-zero, without trailing zeros. */
export function formatRfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction === '' ? '' : `.${fraction}`}Z`;
}
