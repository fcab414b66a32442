import { isObject, type KubeObject } from '../../api/types.js';

/**
 * The pod failure back-off of one Job (backoff_utils): k failures since the last success delay the next pod by
 * base × 2^(k−1), capped, counted from when the last failed pod finished (R12.104). Kept in controller memory, per
 * Job, as upstream does.
 */
export interface BackoffSettings {
  /** DefaultJobPodFailureBackOff: 10 s. */
  readonly baseMs: number;
  /** MaxJobPodFailureBackOff: 10 minutes. */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 10_000, maxMs: 10 * 60_000 };

interface BackoffRecord {
  failuresAfterLastSuccess: number;
  /** When the last counted failure finished (ms); undefined without one. */
  lastFailureMs: number | undefined;
}

const objects = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);
const record = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});
const timeOf = (value: unknown): number | undefined => {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/** latestFinishTime: the latest finishedAt of the statuses `check` keeps; undefined if one of them still runs. */
function latestFinish(
  previous: number | undefined,
  statuses: Record<string, unknown>[],
  check?: (s: Record<string, unknown>) => boolean,
): number | undefined {
  let latest = previous;
  for (const status of statuses) {
    if (check !== undefined && !check(status)) continue;
    const terminated = record(status.state).terminated;
    if (!isObject(terminated)) return undefined;
    const finished = timeOf(terminated.finishedAt) ?? 0;
    if (latest === undefined || latest < finished) latest = finished;
  }
  return latest;
}

/**
 * getFinishedTime: when the pod's containers (sidecars included) last stopped, else when it stopped being Ready,
 * else its deletion time less the grace period, else now.
 */
export function podFinishedMs(pod: KubeObject, now: number): number {
  const status = record(pod.status);
  const spec = record(pod.spec);
  const sidecars = new Set(
    objects(spec.initContainers)
      .filter((c) => c.restartPolicy === 'Always')
      .map((c) => c.name),
  );
  const fromContainers = latestFinish(
    latestFinish(undefined, objects(status.containerStatuses)),
    objects(status.initContainerStatuses),
    (s) => sidecars.has(s.name),
  );
  if (fromContainers !== undefined) return fromContainers;
  const ready = objects(status.conditions).find((c) => c.type === 'Ready');
  if (ready?.status === 'False') {
    const since = timeOf(ready.lastTransitionTime);
    if (since !== undefined) return since;
  }
  const deletion = timeOf(pod.metadata.deletionTimestamp);
  if (deletion !== undefined) return deletion - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return now;
}

export class PodFailureBackoff {
  private readonly byJob = new Map<string, BackoffRecord>();
  private readonly settings: BackoffSettings;

  constructor(settings: BackoffSettings = DEFAULT_BACKOFF) {
    this.settings = settings;
  }

  /**
   * newBackoffRecord: newly counted pods. Without successes the failures add up and the latest one's finish time is
   * kept; with a success, only the failures that finished after the last success count.
   */
  observe(jobKey: string, succeeded: readonly KubeObject[], failed: readonly KubeObject[], now: number): void {
    if (succeeded.length === 0 && failed.length === 0) return;
    const previous = this.byJob.get(jobKey) ?? { failuresAfterLastSuccess: 0, lastFailureMs: undefined };
    const failedTimes = failed.map((pod) => podFinishedMs(pod, now)).sort((a, b) => a - b);
    if (succeeded.length === 0) {
      this.byJob.set(jobKey, {
        failuresAfterLastSuccess: previous.failuresAfterLastSuccess + failed.length,
        lastFailureMs: failedTimes[failedTimes.length - 1],
      });
      return;
    }
    const lastSuccess = Math.max(...succeeded.map((pod) => podFinishedMs(pod, now)));
    const later = failedTimes.filter((t) => t > lastSuccess);
    this.byJob.set(jobKey, { failuresAfterLastSuccess: later.length, lastFailureMs: later[later.length - 1] });
  }

  /** getRemainingTime: how long new pods must still wait (0: not at all). */
  remainingMs(jobKey: string, now: number): number {
    const backoff = this.byJob.get(jobKey);
    if (backoff === undefined || backoff.failuresAfterLastSuccess === 0 || backoff.lastFailureMs === undefined) return 0;
    const delay = Math.min(this.settings.baseMs * 2 ** (backoff.failuresAfterLastSuccess - 1), this.settings.maxMs);
    return Math.max(0, backoff.lastFailureMs + delay - now);
  }

  forget(jobKey: string): void {
    this.byJob.delete(jobKey);
  }
}
