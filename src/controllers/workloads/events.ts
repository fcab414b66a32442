import type { KubeObject } from '../../api/types.js';
import type { ApiClient } from '../../client/interface.js';

const EVENTS = { group: '', version: 'v1', resource: 'events' };

export type EventRecorder = (owner: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** EventSourceObjectSpamFilter's defaults: 25 events per source and object, then one more every 5 minutes. */
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;
/** The correlator's LRU bound on the objects it remembers. */
const SPAM_CACHE_ENTRIES = 4096;

/**
 * EventSourceObjectSpamFilter: a token bucket per involved object (this recorder is one source). A ReplicaSet
 * creating 10,000 pods reports its first 25 creations, as client-go's correlator lets through.
 */
function spamFilter(now: () => number): (owner: KubeObject) => boolean {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (owner) => {
    const key = [owner.kind, owner.metadata.namespace, owner.metadata.name, owner.metadata.uid, owner.apiVersion].join('\u0000');
    const t = now();
    const previous = buckets.get(key);
    const tokens = previous === undefined ? SPAM_BURST : Math.min(SPAM_BURST, previous.tokens + (t - previous.at) / SPAM_REFILL_MS);
    buckets.delete(key);
    buckets.set(key, { tokens: tokens >= 1 ? tokens - 1 : tokens, at: t });
    if (buckets.size > SPAM_CACHE_ENTRIES) buckets.delete(buckets.keys().next().value as string);
    return tokens >= 1;
  };
}

/**
 * record.EventRecorder for one component: a core/v1 Event on the owner, written without waiting (a controller's
 * sync never blocks on its events, and a failed event is only logged); events beyond the spam filter's allowance
 * for an object are dropped, as client-go drops them.
 */
export function eventRecorder(
  client: ApiClient,
  component: string,
  log: (message: string) => void,
  now: () => number = Date.now,
): EventRecorder {
  const allowed = spamFilter(now);
  return (owner, type, reason, message) => {
    if (!allowed(owner)) return;
    const namespace = owner.metadata.namespace ?? 'default';
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    client
      .create(EVENTS, namespace, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${owner.metadata.name}.`, namespace },
        involvedObject: {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.metadata.name,
          namespace,
          uid: owner.metadata.uid,
          resourceVersion: owner.metadata.resourceVersion,
        },
        reason,
        message,
        type,
        source: { component },
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count: 1,
        reportingComponent: component,
      })
      .catch((err: unknown) => log(`${component}: recording event ${reason} failed: ${String(err)}`));
  };
}
