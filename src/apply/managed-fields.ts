import { isJsonMap } from '../util/json-value.js';
import { decodeFieldsV1, encodeFieldsV1, FieldSet, FieldsV1Error } from './fieldpath.js';

/** One manager's record (a decoded metav1.ManagedFieldsEntry, R10.30). */
export interface ManagedEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  readonly subresource?: string;
  set: FieldSet;
}

/** The entries of an object by identity (R10.38), in the order they were read. */
export type ManagedFields = Map<string, ManagedEntry>;

/**
 * The identity apimachinery builds for a manager (BuildManagerIdentifier): the entry's JSON without time and
 * fields, apiVersion only for Update entries. Conflict messages list managers in this string's order (R10.88).
 */
export function managerKey(manager: string, operation: 'Apply' | 'Update', apiVersion: string, subresource: string | undefined): string {
  const id: Record<string, string> = { manager, operation };
  if (operation === 'Update') id.apiVersion = apiVersion;
  if (subresource !== undefined && subresource !== '') id.subresource = subresource;
  return JSON.stringify(id);
}

export const keyOf = (e: ManagedEntry): string => managerKey(e.manager, e.operation, e.apiVersion, e.subresource);

export class ManagedFieldsError extends Error {}

/** Decodes a managedFields list (R10.37); any bad entry makes the whole list undecodable. Later duplicates win (R10.57). */
export function decodeManagedFields(list: unknown): ManagedFields {
  const out: ManagedFields = new Map();
  if (list === undefined || list === null) return out;
  if (!Array.isArray(list)) throw new ManagedFieldsError('managedFields must be a list');
  for (const [i, raw] of list.entries()) {
    if (!isJsonMap(raw)) throw new ManagedFieldsError('managedFields entries must be objects');
    const { manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource } = raw;
    // DecodeManagedFields' checks and words, in its order.
    if (operation !== 'Apply' && operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (typeof apiVersion !== 'string' || apiVersion === '') throw new ManagedFieldsError('apiVersion must not be empty');
    if (fieldsType === undefined || fieldsType === null || fieldsType === '')
      throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1')
      throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = decodeFieldsV1(fieldsV1);
    } catch (err) {
      if (err instanceof FieldsV1Error) throw new ManagedFieldsError(`error decoding fieldsV1: ${err.message}`);
      throw err;
    }
    const entry: ManagedEntry = {
      manager: typeof manager === 'string' ? manager : '',
      operation,
      apiVersion,
      set,
      ...(typeof time === 'string' && time !== '' ? { time } : {}),
      ...(typeof subresource === 'string' && subresource !== '' ? { subresource } : {}),
    };
    const key = keyOf(entry);
    out.delete(key);
    out.set(key, entry);
  }
  return out;
}

/** `[]` or `[{}]`: the client asks to clear every entry (R10.56). */
export function isResetRequest(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  if (list.length === 0) return true;
  return (
    list.length === 1 &&
    isJsonMap(list[0]) &&
    Object.values(list[0]).every((v) => v === undefined || v === null || v === '' || (isJsonMap(v) && Object.keys(v).length === 0))
  );
}

function timeOrder(t: string | undefined): number {
  return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** R10.34: Apply first, then by time (missing = 0), manager, apiVersion, subresource. */
export function compareEntries(a: ManagedEntry, b: ManagedEntry): number {
  if (a.operation !== b.operation) return a.operation === 'Apply' ? -1 : 1;
  return (
    timeOrder(a.time) - timeOrder(b.time) ||
    compareStrings(a.manager, b.manager) ||
    compareStrings(a.apiVersion, b.apiVersion) ||
    compareStrings(a.subresource ?? '', b.subresource ?? '')
  );
}

/** The wire list (R10.30, R10.35): entries owning nothing are left out; undefined when none remain. */
export function encodeManagedFields(fields: ManagedFields): Record<string, unknown>[] | undefined {
  const entries = [...fields.values()].filter((e) => !e.set.isEmpty()).sort(compareEntries);
  if (entries.length === 0) return undefined;
  return entries.map((e) => {
    const out: Record<string, unknown> = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = encodeFieldsV1(e.set);
    if (e.subresource !== undefined) out.subresource = e.subresource;
    return out;
  });
}

/** Metadata fields never recorded in any entry (R10.36). */
export const STRIPPED_METADATA_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
]);

/** Paths never recorded in any entry (R10.36): apiVersion, kind, the metadata node and the fields above. */
export const STRIPPED_PATHS: FieldSet = FieldSet.fromPaths([
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ...[...STRIPPED_METADATA_FIELDS].map((f) => ['f:metadata', `f:${f}`]),
]);

const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

/** R10.52: folds the oldest Update entries into `ancient-changes` buckets until at most ten remain. */
export function capUpdateManagers(fields: ManagedFields): void {
  const updates = [...fields.values()].filter((e) => e.operation === 'Update' && !e.set.isEmpty());
  if (updates.length <= MAX_UPDATE_MANAGERS) return;
  updates.sort(compareEntries);
  let excess = updates.length - MAX_UPDATE_MANAGERS;
  for (const entry of updates) {
    if (excess <= 0) break;
    if (entry.manager === ANCIENT_CHANGES) continue;
    const bucketKey = managerKey(ANCIENT_CHANGES, 'Update', entry.apiVersion, undefined);
    const bucket = fields.get(bucketKey);
    fields.delete(keyOf(entry));
    if (bucket === undefined) {
      fields.set(bucketKey, {
        manager: ANCIENT_CHANGES,
        operation: 'Update',
        apiVersion: entry.apiVersion,
        set: entry.set,
        ...(entry.time === undefined ? {} : { time: entry.time }),
      });
      // A new bucket takes the folded entry's place, so only folding into an existing one reduces the count.
      continue;
    }
    bucket.set = bucket.set.union(entry.set);
    if (entry.time !== undefined && timeOrder(entry.time) >= timeOrder(bucket.time)) bucket.time = entry.time;
    excess--;
  }
}
