import type { OriginalIdentity } from '../../registry/archive/entry.js';

/** One object a restore recreated: its old uid and the new one (empty on a dry run). */
export interface RestoredItem {
  readonly resource: string;
  readonly namespace?: string;
  readonly name: string;
  readonly oldUID: string;
  readonly newUID: string;
  /** Owner references dropped because their owner is gone and not restored. */
  readonly message?: string;
}

/** One object a restore did not recreate, and why. */
export interface RefusedItem {
  readonly resource: string;
  readonly namespace?: string;
  readonly name: string;
  readonly oldUID: string;
  readonly message: string;
}

export interface RestoreCondition {
  readonly type: 'Complete' | 'Failed';
  readonly status: 'True';
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
}

export interface RestoreStatus {
  readonly restored: readonly RestoredItem[];
  readonly notRestored: readonly RefusedItem[];
  readonly conditions: readonly RestoreCondition[];
}

export function itemOf(original: OriginalIdentity): { resource: string; namespace?: string; name: string; oldUID: string } {
  return {
    resource: original.resource,
    ...(original.namespace === undefined ? {} : { namespace: original.namespace }),
    name: original.name,
    oldUID: original.uid,
  };
}

/** The status a restore ends with. */
export function finished(
  type: 'Complete' | 'Failed',
  reason: string,
  message: string,
  now: Date,
  restored: readonly RestoredItem[] = [],
  notRestored: readonly RefusedItem[] = [],
): RestoreStatus {
  const lastTransitionTime = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { restored, notRestored, conditions: [{ type, status: 'True', reason, message, lastTransitionTime }] };
}
