/**
 * The pod failure back-off of one Job (backoff_utils): k failures since the last success delay the next pod by
 * base × 2^(k−1), capped, counted from the last failure (R12.104). Kept in controller memory, as upstream does.
 */
export interface BackoffSettings {
  /** DefaultJobPodFailureBackOff: 10 s. */
  readonly baseMs: number;
  /** MaxJobPodFailureBackOff: 10 minutes. */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 10_000, maxMs: 10 * 60_000 };

interface Record {
  failures: number;
  lastFailureMs: number;
}

export class PodFailureBackoff {
  private readonly byJob = new Map<string, Record>();
  private readonly settings: BackoffSettings;

  constructor(settings: BackoffSettings = DEFAULT_BACKOFF) {
    this.settings = settings;
  }

  /** Newly counted outcomes: a success resets the count, failures then add to it. */
  observe(jobKey: string, succeeded: number, failed: number, now: number): void {
    if (succeeded === 0 && failed === 0) return;
    const record = this.byJob.get(jobKey) ?? { failures: 0, lastFailureMs: 0 };
    if (succeeded > 0) record.failures = 0;
    if (failed > 0) {
      record.failures += failed;
      record.lastFailureMs = now;
    }
    this.byJob.set(jobKey, record);
  }

  /** How long new pods must still wait (0: not at all). */
  remainingMs(jobKey: string, now: number): number {
    const record = this.byJob.get(jobKey);
    if (record === undefined || record.failures === 0) return 0;
    const delay = Math.min(this.settings.baseMs * 2 ** (record.failures - 1), this.settings.maxMs);
    return Math.max(0, record.lastFailureMs + delay - now);
  }

  forget(jobKey: string): void {
    this.byJob.delete(jobKey);
  }
}
