import { FINALIZER_ORPHAN } from '../api/finalizers.js';
import type { DeleteOptions } from '../api/delete-options.js';
import type { KubeObject } from '../api/types.js';
import { normaliseGrace } from './delete-policy.js';
import type { Strategy } from './strategy.js';

/**
 * Extension B (R12.172–R12.174, seed 002's open question on propagating the grace period): with
 * --propagate-grace-period a DELETE carrying gracePeriodSeconds keeps a non-pod owner, through this finalizer,
 * until the collector has deleted every dependent with the same grace period; the annotation carries it.
 */
export const FINALIZER_POPULATING_GRACEFUL_DELETION = 'cascade.dev/populating-graceful-deletion';
export const PROPAGATED_GRACE_ANNOTATION = 'cascade.dev/propagated-grace-period-seconds';

/** The grace period an owner propagates, from its annotation; undefined when it carries none. */
export function propagatedGrace(obj: KubeObject): number | undefined {
  const text = obj.metadata.annotations?.[PROPAGATED_GRACE_ANNOTATION];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/**
 * The strategy of a kind that takes part in garbage collection, extended so its DELETE adds the finalizer and the
 * annotation (R12.173) or, switched to Orphan, drops them (R12.174). Pods are graceful themselves and keep theirs.
 */
export function withGracePropagation(inner: Strategy): Strategy {
  if (inner.gcPolicy === 'Unsupported') return inner;
  const deletionFinalizers: Strategy['deletionFinalizers'] = (opts, finalizers, obj) => {
    const base = inner.deletionFinalizers(opts, finalizers, obj);
    const orphan = base.finalizers.includes(FINALIZER_ORPHAN);
    const has = base.finalizers.includes(FINALIZER_POPULATING_GRACEFUL_DELETION);
    if (orphan && has) {
      return { changed: true, finalizers: base.finalizers.filter((f) => f !== FINALIZER_POPULATING_GRACEFUL_DELETION) };
    }
    if (orphan || has || !startsPropagation(opts, obj)) return base;
    return { changed: true, finalizers: [...base.finalizers, FINALIZER_POPULATING_GRACEFUL_DELETION] };
  };
  return {
    ...inner,
    deletionFinalizers,
    deletionAnnotation: (opts, obj, finalizers) => {
      const carrying = finalizers.includes(FINALIZER_POPULATING_GRACEFUL_DELETION);
      const current = propagatedGrace(obj);
      if (!carrying) return current === undefined ? undefined : { name: PROPAGATED_GRACE_ANNOTATION, value: null };
      const requested = normaliseGrace(opts.gracePeriodSeconds);
      if (requested === undefined || (current !== undefined && current <= requested)) return undefined;
      return { name: PROPAGATED_GRACE_ANNOTATION, value: String(requested) };
    },
  };
}

/** The write that first sets deletionTimestamp, with a grace period asked for. */
function startsPropagation(opts: DeleteOptions, obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp === undefined && opts.gracePeriodSeconds !== undefined;
}

/** Sets (a string) or removes (null) one annotation, dropping an emptied map as the API server serialises it. */
export function setAnnotation(obj: KubeObject, name: string, value: string | null): void {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  if (value === null) delete annotations[name];
  else annotations[name] = value;
  if (Object.keys(annotations).length === 0) delete obj.metadata.annotations;
  else obj.metadata.annotations = annotations;
}
