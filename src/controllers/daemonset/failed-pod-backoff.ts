/**
 * The DaemonSet controller's failedPodsBackoff: after a failed daemon pod is killed on a node, the next one on that
 * node waits 1 s, then twice as long after each further failure, up to 15 minutes (R12.95).
 */
const INITIAL_MS = 1000;
const MAX_MS = 15 * 60 * 1000;

export class FailedPodBackoff {
  private readonly entries = new Map<string, { delayMs: number; until: number }>();

  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** True (and the backoff advanced) when a failed pod on the node may be replaced now. */
  mayRetry(setKey: string, node: string): boolean {
    const key = `${setKey}/${node}`;
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry !== undefined && now < entry.until) return false;
    const delayMs = entry === undefined ? INITIAL_MS : Math.min(entry.delayMs * 2, MAX_MS);
    this.entries.set(key, { delayMs, until: now + delayMs });
    return true;
  }

  /** How long until the set's earliest node backoff ends; undefined when none is running. */
  nextRetryMs(setKey: string): number | undefined {
    const now = this.now();
    let soonest: number | undefined;
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(`${setKey}/`) || entry.until <= now) continue;
      soonest = Math.min(soonest ?? Number.POSITIVE_INFINITY, entry.until - now);
    }
    return soonest;
  }

  forget(setKey: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${setKey}/`)) this.entries.delete(key);
  }
}
