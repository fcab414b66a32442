import { applyPatch, type Operation, Pointer } from 'rfc6902';
import { malformedPatch, tooManyPatchOperations, unprocessablePatch } from './errors.js';
import { MAX_OBJECT_DEPTH, nestingDepth } from '../decoding/nesting.js';
import { cloneJson, hasKey, isJsonMap, type JsonMap } from '../util/json-value.js';

/** kube-apiserver refuses JSON patches with more operations than this (413). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

const OPERATION_FIELDS = new Set(['op', 'path', 'from', 'value']);
const KNOWN_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * Applies an RFC 6902 JSON patch (the parsed request body) to a copy of `original`.
 * A body that is not a list of operation objects is a 400 BadRequest; more than MAX_JSON_PATCH_OPERATIONS
 * operations is a 413; an operation that fails (failed `test`, missing path, bad index, unknown op) is a 422
 * whose message is the generic one Kubernetes sends. Like the server's JSON patch library, `replace` of a
 * missing object member adds it, and `test` of a missing member against null succeeds.
 */
export function applyJsonPatch(original: unknown, patch: unknown): unknown {
  const operations = decodeJsonPatch(patch);
  const document = cloneJson(original);
  const copied = { bytes: 0 };
  for (const operation of operations) {
    const failure = copyLimitExceeded(document, operation, copied) ?? applyOperation(document, operation);
    if (failure !== undefined) throw unprocessablePatch(failure);
  }
  return document;
}

/**
 * kube-apiserver's JSONPatchMaxCopyBytes: what `copy` operations may add up to over one patch. Without it, a few
 * dozen copies of a subtree into itself double the object each time, past any memory a 3 MiB body should cost.
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

/** Counts a `copy` operation's value (as JSON bytes, as the patch library measures it) against the patch's limit. */
function copyLimitExceeded(document: unknown, operation: JsonMap | null, copied: { bytes: number }): string | undefined {
  if (operation === null || operation.op !== 'copy' || typeof operation.from !== 'string') return undefined;
  let value: unknown;
  try {
    value = Pointer.fromJSON(operation.from).evaluate(document).value;
  } catch {
    return undefined;
  }
  copied.bytes += Buffer.byteLength(JSON.stringify(value) ?? 'null');
  if (copied.bytes <= MAX_JSON_PATCH_COPY_BYTES) return undefined;
  return `Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`;
}

/**
 * With fieldValidation Strict or Warn the server also reports operation members it does not know, e.g.
 * `json patch unknown field "[0].foo"`. Returns those messages (the caller warns or rejects).
 */
export function jsonPatchStrictErrors(patch: unknown): string[] {
  if (!Array.isArray(patch)) return [];
  const errors: string[] = [];
  patch.forEach((operation, index) => {
    if (!isJsonMap(operation)) return;
    for (const key of Object.keys(operation)) {
      if (!OPERATION_FIELDS.has(key)) errors.push(`json patch unknown field "[${index}].${key}"`);
    }
  });
  return errors;
}

function decodeJsonPatch(patch: unknown): (JsonMap | null)[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw malformedPatch(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type jsonpatch.Patch`);
  }
  for (const operation of patch) {
    if (operation !== null && !isJsonMap(operation)) {
      throw malformedPatch(`json: cannot unmarshal ${jsonKind(operation)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyPatchOperations(MAX_JSON_PATCH_OPERATIONS, patch.length);
  return patch as (JsonMap | null)[];
}

/** Returns a description of the failure, or undefined when the operation applied. */
function applyOperation(document: unknown, operation: JsonMap | null): string | undefined {
  const kind = operation !== null && typeof operation.op === 'string' ? operation.op : 'unknown';
  if (operation === null || !KNOWN_OPS.has(kind)) return `Unexpected kind: ${kind}`;
  if (typeof operation.path !== 'string') return `${kind} operation failed to decode path`;
  if ((kind === 'move' || kind === 'copy') && typeof operation.from !== 'string') {
    return `${kind} operation failed to decode from`;
  }
  let located: { parent: unknown; key: string; value: unknown };
  try {
    located = Pointer.fromJSON(operation.path).evaluate(document);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const tooDeep = nestsTooDeeply(document, operation, kind);
  if (tooDeep !== undefined) return tooDeep;
  const parentIsObject = isJsonMap(located.parent);
  const missingMember = parentIsObject && !hasKey(located.parent as JsonMap, located.key);
  if (kind === 'test' && missingMember && (operation.value === null || !hasKey(operation, 'value'))) return undefined;
  const effective = (kind === 'replace' && missingMember ? { ...operation, op: 'add' } : operation) as unknown as Operation;
  try {
    const [result] = applyPatch(document, [effective]);
    return result === null || result === undefined ? undefined : result.message;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Only a JSON patch can make an object nest deeper than its body did (`copy` doubles a subtree per operation), so
 * each value it places is measured against MAX_OBJECT_DEPTH before it is placed.
 */
function nestsTooDeeply(document: unknown, operation: JsonMap, kind: string): string | undefined {
  let placed: unknown;
  if (kind === 'add' || kind === 'replace') placed = operation.value;
  else if (kind === 'copy' || kind === 'move') {
    try {
      placed = Pointer.fromJSON(operation.from as string).evaluate(document).value;
    } catch {
      return undefined;
    }
  } else return undefined;
  const at = (operation.path as string).split('/').length - 1;
  if (at + nestingDepth(placed, MAX_OBJECT_DEPTH) <= MAX_OBJECT_DEPTH) return undefined;
  return `${kind} operation would nest the object deeper than ${MAX_OBJECT_DEPTH} levels`;
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isJsonMap(value)) return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}
