import type { DeleteOptions } from '../api/delete-options.js';
import { conflict } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { normaliseGrace } from './delete-policy.js';
import type { Strategy } from './strategy.js';
import { nowSeconds } from './timestamps.js';

/**
 * The decisions of DELETE's state machine (store.go's BeforeDelete, updateForGracefulDeletionAndFinalizers and
 * their outcomes), apart from the reads and writes the store does around them.
 */

/** R2.6: preconditions against the current object, reported with the Kind. */
export function checkDeletePreconditions(info: ResourceInfo, obj: KubeObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  if (p === undefined) return;
  const name = obj.metadata.name ?? '';
  const kindRef = { group: info.group, resource: info.kind };
  if (p.uid !== undefined && p.uid !== obj.metadata.uid) {
    throw conflict(
      kindRef,
      name,
      `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(
      kindRef,
      name,
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`,
    );
  }
}

/** The sentinel for a DELETE that changes nothing: the object is answered as it is. */
export const UNCHANGED = Symbol('unchanged');

/** The grace period a DELETE applies (undefined: none, the object goes at once), or UNCHANGED. */
export type DeletionGrace = { readonly seconds: number | undefined; readonly shortens: { readonly from: number } | undefined };

export function deletionGrace(strategy: Strategy, obj: KubeObject, opts: DeleteOptions): DeletionGrace | typeof UNCHANGED {
  const meta = obj.metadata;
  const requestedGrace = normaliseGrace(opts.gracePeriodSeconds);
  const currentGrace = normaliseGrace(meta.deletionGracePeriodSeconds);
  const inGracePeriod = meta.deletionTimestamp !== undefined && currentGrace !== undefined && currentGrace > 0;
  // R2.21: an object already marked without a grace period is deleted non-gracefully from then on.
  const grace = meta.deletionTimestamp !== undefined && !inGracePeriod ? undefined : strategy.gracePeriodFor(obj, requestedGrace);
  // R5.7: a terminating object its strategy still holds (a namespace with spec finalizers) ignores DELETEs.
  if (meta.deletionTimestamp !== undefined && !strategy.readyToRemove(obj)) return UNCHANGED;
  // R2.20: while a grace period runs, only a strictly shorter one changes anything.
  if (inGracePeriod && (grace === undefined || requestedGrace === undefined || grace >= (currentGrace ?? 0))) return UNCHANGED;
  return { seconds: grace, shortens: inGracePeriod ? { from: currentGrace ?? 0 } : undefined };
}

/**
 * What a DELETE that changes something does: `mark` keeps the object, terminating, with this deletionTimestamp and
 * grace period; `remove` takes it out of storage, after first marking it when `markFirst` is set.
 */
export type DeletionOutcome =
  | { readonly kind: 'mark'; readonly deletionTimestamp: string; readonly gracePeriodSeconds: number }
  | { readonly kind: 'remove'; readonly markFirst: string | undefined };

export function deletionOutcome(
  strategy: Strategy,
  obj: KubeObject,
  grace: DeletionGrace,
  finalizers: readonly string[],
  clock: () => Date,
): DeletionOutcome {
  const meta = obj.metadata;
  const seconds = grace.seconds;
  if (seconds !== undefined && seconds > 0) {
    // R2.20: a shorter period moves the deadline by the difference.
    const deletionTimestamp =
      grace.shortens !== undefined
        ? new Date(Date.parse(meta.deletionTimestamp as string) + (seconds - grace.shortens.from) * 1000)
            .toISOString()
            .replace('.000Z', 'Z')
        : nowSeconds(clock, seconds);
    return { kind: 'mark', deletionTimestamp, gracePeriodSeconds: seconds };
  }
  // R1.15: finalizer-only deletion stamps "now", pulling a later (graceful) timestamp back.
  const now = nowSeconds(clock);
  const stamped =
    meta.deletionTimestamp === undefined || Date.parse(meta.deletionTimestamp) > Date.parse(now) ? now : meta.deletionTimestamp;
  // Only metadata.finalizers differ between the stored object and the one a mark would write.
  if (finalizers.length > 0 || !strategy.readyToRemove(obj)) return { kind: 'mark', deletionTimestamp: stamped, gracePeriodSeconds: 0 };
  // R2.19: a graceful type deleted with period 0 is first marked (watchers see MODIFIED), then removed.
  return { kind: 'remove', markFirst: seconds === 0 ? stamped : undefined };
}
