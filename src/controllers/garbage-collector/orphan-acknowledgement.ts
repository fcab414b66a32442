import { FINALIZER_ORPHAN } from '../../api/finalizers.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { ObjectIdentity } from './graph.js';

/**
 * Extension A (R12.164–R12.171, seed 002's adoption race): before the orphan finalizer strips an owner from its
 * dependents, the owner's controller must have acknowledged the deletion by raising `status.observedGeneration` to
 * the generation the deletion bumped (R1.10). Until then the controller may still see the owner alive and adopt a
 * dependent again, which the owner's removal would then take with it.
 */

/** `apiVersion/Kind` of the owners whose controllers Cascade runs and which always acknowledge (R12.166, R12.168). */
export const ACKNOWLEDGING_KINDS = [
  'apps/v1/Deployment',
  'apps/v1/ReplicaSet',
  'apps/v1/StatefulSet',
  'apps/v1/DaemonSet',
  'v1/ReplicationController',
] as const;

/** Kinds whose status has no observedGeneration in 1.32 (R12.37): never waited for, whatever their status says. */
const WITHOUT_OBSERVED_GENERATION = new Set(['batch/v1/Job', 'batch/v1/CronJob']);

/** The R12.167 backoff while the acknowledgement is awaited. */
const FIRST_RECHECK_MS = 50;
const MAX_RECHECK_MS = 2000;

/** --orphan-observed-generation-timeout's default (R12.170). */
export const DEFAULT_ORPHAN_ACKNOWLEDGEMENT_TIMEOUT_MS = 30_000;

export const ORPHAN_TIMEOUT_REASON = 'OrphanObservedGenerationTimeout';

export interface OrphanAcknowledgementOptions {
  /** `apiVersion/Kind` of the ACKNOWLEDGING_KINDS whose controller runs in this process (R12.166). */
  readonly controlledKinds: readonly string[];
  /** How long the wait lasts before the orphaning proceeds as upstream, with a Warning event (R12.170). */
  readonly timeoutMs?: number;
  /** Milliseconds since the epoch; tests pass their own. */
  readonly now?: () => number;
}

/** What the orphan worker does with an owner now. */
export type OrphanVerdict =
  | { readonly kind: 'proceed' }
  /** The owner no longer asks to orphan (R12.171): nothing is touched. */
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'wait'; readonly recheckAfterMs: number }
  | { readonly kind: 'timed-out'; readonly message: string };

/** The generation an owner must see acknowledged, and what its status acknowledges; undefined: no wait applies. */
export function acknowledgementOf(
  owner: KubeObject,
  identity: Pick<ObjectIdentity, 'apiVersion' | 'kind'>,
  controlledKinds: ReadonlySet<string>,
): { readonly generation: number; readonly observed: number } | undefined {
  const generation = owner.metadata.generation ?? 0;
  if (generation <= 0) return undefined;
  const kind = `${identity.apiVersion}/${identity.kind}`;
  if (WITHOUT_OBSERVED_GENERATION.has(kind)) return undefined;
  const observed = isObject(owner.status) ? owner.status.observedGeneration : undefined;
  const numeric = typeof observed === 'number' ? observed : undefined;
  if (controlledKinds.has(kind)) return { generation, observed: numeric ?? 0 };
  // A workload kind whose controller does not run here would never answer.
  if ((ACKNOWLEDGING_KINDS as readonly string[]).includes(kind)) return undefined;
  return numeric === undefined ? undefined : { generation, observed: numeric };
}

/**
 * Per owner, when its wait began and the next recheck delay. An entry lives only while its owner waits: it goes
 * when the owner proceeds, is cancelled or disappears, so the map holds at most the owners being orphaned.
 */
export class OrphanAcknowledgement {
  private readonly controlledKinds: ReadonlySet<string>;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly waits = new Map<string, { readonly since: number; delayMs: number }>();

  constructor(options: OrphanAcknowledgementOptions) {
    this.controlledKinds = new Set(options.controlledKinds);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_ORPHAN_ACKNOWLEDGEMENT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** Owners currently waiting (for the debug view and tests). */
  get waiting(): number {
    return this.waits.size;
  }

  /** R12.167: decides from the owner's live state (undefined: gone, which ends the wait, R12.170). */
  verdict(identity: ObjectIdentity, live: KubeObject | undefined): OrphanVerdict {
    if (live === undefined || live.metadata.uid !== identity.uid) return this.end(identity, { kind: 'proceed' });
    const orphaning = live.metadata.deletionTimestamp !== undefined && (live.metadata.finalizers ?? []).includes(FINALIZER_ORPHAN);
    if (!orphaning) return this.end(identity, { kind: 'cancelled' });
    const ack = acknowledgementOf(live, identity, this.controlledKinds);
    if (ack === undefined || ack.observed >= ack.generation) return this.end(identity, { kind: 'proceed' });
    const now = this.now();
    let wait = this.waits.get(identity.uid);
    if (wait === undefined) {
      wait = { since: now, delayMs: FIRST_RECHECK_MS };
      this.waits.set(identity.uid, wait);
    }
    const waited = now - wait.since;
    if (waited >= this.timeoutMs) {
      return this.end(identity, {
        kind: 'timed-out',
        message: `the controller of this object did not acknowledge its deletion within ${formatSeconds(this.timeoutMs)} (status.observedGeneration ${ack.observed} < metadata.generation ${ack.generation}); its dependents are orphaned anyway and may be adopted again`,
      });
    }
    const recheckAfterMs = Math.min(wait.delayMs, this.timeoutMs - waited);
    wait.delayMs = Math.min(wait.delayMs * 2, MAX_RECHECK_MS);
    return { kind: 'wait', recheckAfterMs };
  }

  private end(identity: ObjectIdentity, verdict: OrphanVerdict): OrphanVerdict {
    this.waits.delete(identity.uid);
    return verdict;
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
