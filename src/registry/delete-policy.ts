import { type FieldError, fieldError, StatusError } from '../api/errors.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../api/finalizers.js';
import { isObject } from '../api/types.js';
import { isInt64Literal } from '../decoding/int64.js';
import type { DeleteOptions, GcPolicy, PropagationPolicy } from '../api/delete-options.js';

/** Pure pieces of the DELETE path (mirrors registry/store.go's deletion helpers; rules R2.1–R2.15). */

const POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan'];

/**
 * Reads DeleteOptions from a decoded request body, rejecting fields of the wrong type with 400 and Go's decoding
 * error (Kubernetes answers those with 500). `literal` gives a number field's source text, so that an integer past
 * int64 (which a double cannot tell from one inside) is refused as Go refuses it.
 */
export function deleteOptionsFromBody(body: unknown, literal: (key: string) => string | undefined = () => undefined): DeleteOptions {
  if (!isObject(body)) throw new StatusError(400, 'BadRequest', 'DeleteOptions must be a JSON object');
  const opts: DeleteOptions = {};
  const grace = body.gracePeriodSeconds;
  if (grace !== undefined && grace !== null) {
    const text = typeof grace === 'number' ? (literal('gracePeriodSeconds') ?? String(grace)) : undefined;
    if (text === undefined || !isInt64Literal(text)) {
      const found = text === undefined ? goJsonKind(grace) : `number ${text}`;
      throw new StatusError(
        400,
        'BadRequest',
        `json: cannot unmarshal ${found} into Go struct field DeleteOptions.gracePeriodSeconds of type int64`,
      );
    }
    opts.gracePeriodSeconds = Number(text);
  }
  if (isObject(body.preconditions)) {
    const p = body.preconditions;
    opts.preconditions = {};
    if (typeof p.uid === 'string') opts.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') opts.preconditions.resourceVersion = p.resourceVersion;
  }
  if (typeof body.orphanDependents === 'boolean') opts.orphanDependents = body.orphanDependents;
  if (typeof body.propagationPolicy === 'string') opts.propagationPolicy = body.propagationPolicy as PropagationPolicy;
  if (Array.isArray(body.dryRun)) opts.dryRun = body.dryRun.map(String);
  return opts;
}

function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** ValidateDeleteOptions (R2.3). */
export function validateDeleteOptions(opts: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errs.push(
      fieldError.invalid('propagationPolicy', opts.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'),
    );
  }
  if (opts.propagationPolicy !== undefined && !POLICIES.includes(opts.propagationPolicy)) {
    errs.push(fieldError.notSupported('propagationPolicy', opts.propagationPolicy, [...POLICIES, 'nil']));
  }
  for (const v of opts.dryRun ?? []) {
    if (v !== 'All') errs.push(fieldError.notSupported('dryRun', opts.dryRun, ['All']));
  }
  return errs;
}

/** R2.13: whether the object should get the `orphan` finalizer. */
export function shouldOrphanDependents(gcPolicy: GcPolicy, opts: DeleteOptions, finalizers: readonly string[]): boolean {
  if (gcPolicy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN) return true;
    if (f === FINALIZER_FOREGROUND) return false;
  }
  return gcPolicy === 'OrphanDependents';
}

/** R2.14: whether the object should get the `foregroundDeletion` finalizer. */
export function shouldDeleteDependents(gcPolicy: GcPolicy, opts: DeleteOptions, finalizers: readonly string[]): boolean {
  if (gcPolicy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FINALIZER_FOREGROUND) return true;
    if (f === FINALIZER_ORPHAN) return false;
  }
  return false;
}

/** R2.15: the finalizer list after applying the GC decision, and whether it differs (as a set) from the current one. */
export function deletionFinalizersForGarbageCollection(
  gcPolicy: GcPolicy,
  opts: DeleteOptions,
  finalizers: readonly string[],
): { changed: boolean; finalizers: string[] } {
  const orphan = shouldOrphanDependents(gcPolicy, opts, finalizers);
  const foreground = shouldDeleteDependents(gcPolicy, opts, finalizers);
  const next = finalizers.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  const before = new Set(finalizers);
  const after = new Set(next);
  const changed = before.size !== after.size || [...after].some((f) => !before.has(f));
  return { changed, finalizers: changed ? next : [...finalizers] };
}

/** R2.4: negative grace periods count as 1 second. */
export function normaliseGrace(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  return seconds < 0 ? 1 : seconds;
}
