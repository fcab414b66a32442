import { isJsonMap, type JsonMap } from '../util/json-value.js';
import { annotationsWithinLimit } from '../validation/labels.js';
import { compare } from './compare.js';
import { type Conflict, conflictError } from './conflict.js';
import { canonicalJson, type FieldSet } from './fieldpath.js';
import type { MergeType } from './schema.js';
import { configFieldSet } from './typed.js';

/**
 * kubectl's client-side apply annotation, which the server keeps working for the manager `kubectl` only
 * (apimachinery's lastAppliedManager and lastAppliedUpdater, R10.110, R10.111).
 */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
export const KUBECTL_MANAGER = 'kubectl';

function annotationsOf(obj: JsonMap): JsonMap | undefined {
  const meta = obj.metadata;
  return isJsonMap(meta) && isJsonMap(meta.annotations) ? meta.annotations : undefined;
}

/** Paths the annotation wrote with the value still live: conflicts on them are forgiven (R10.110). */
function allowedConflicts(live: JsonMap, type: MergeType, apiVersion: string): FieldSet | undefined {
  const text = annotationsOf(live)?.[LAST_APPLIED];
  if (typeof text !== 'string' || text === '') return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonMap(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  return configFieldSet(lastApplied, type).difference(compare(lastApplied, live, type).modified);
}

/**
 * The conflicts kubectl's migration from client-side apply does not forgive: empty when the apply may be redone
 * with force; the 409 to answer otherwise, listing only the rest.
 */
export function unforgivenConflicts(conflicts: readonly Conflict[], live: JsonMap, type: MergeType, apiVersion: string): Error | undefined {
  const allowed = allowedConflicts(live, type, apiVersion);
  if (allowed === undefined) return conflictError(conflicts);
  const rest = conflicts.map((c) => ({ ...c, paths: c.paths.difference(allowed) })).filter((c) => !c.paths.isEmpty());
  return rest.length === 0 ? undefined : conflictError(rest);
}

/** Go's json.Marshal of an unstructured object: sorted keys, <, > and & escaped; kubectl adds the newline. */
function goJson(value: unknown): string {
  return canonicalJson(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * R10.111: an object that has the annotation gets the configuration just applied (without the annotation) in it;
 * when that would take the annotations past their 256 KiB limit, the annotation goes instead.
 */
export function refreshLastApplied(result: JsonMap, config: JsonMap): void {
  const annotations = annotationsOf(result);
  const current = annotations?.[LAST_APPLIED];
  if (annotations === undefined || typeof current !== 'string' || current === '') return;
  const copy = structuredClone(config);
  const copyAnnotations = annotationsOf(copy);
  if (copyAnnotations !== undefined) delete copyAnnotations[LAST_APPLIED];
  annotations[LAST_APPLIED] = `${goJson(copy)}\n`;
  if (!annotationsWithinLimit(annotations)) delete annotations[LAST_APPLIED];
}
