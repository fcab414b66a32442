import type { KubeObject } from '../api/types.js';
import { isJsonMap } from '../util/json-value.js';

/**
 * managedFields as storage keeps them. Each entry the server writes has the same seven keys in the same order, and
 * its `fieldsType` is always FieldsV1, so storage keeps such an entry as a positional array
 * `[manager, operation, apiVersion, time, fieldsV1]` (plus the subresource when there is one): operation 0 is
 * Apply and 1 Update, apiVersion 0 stands for the object's own apiVersion, and the time is seconds since the epoch.
 * That makes an entry no bigger than Kubernetes' protobuf encoding of it, where JSON keys made it 13 % bigger.
 *
 * Only an entry that reads back byte for byte is compacted: anything else a client managed to store (no time, a time
 * with a zone or fraction, another fieldsType, keys in another order or unknown keys) stays the object it was, and
 * objects in the list are read as they are, so data stored before this form still decodes.
 */

type StoredEntry = unknown[] | Record<string, unknown>;

const APPLY = 0;
const UPDATE = 1;
const SAME_API_VERSION = 0;
const CANONICAL_KEYS = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1'];

/** Seconds since the epoch when `time` is exactly how a whole-second UTC time prints (`2026-11-27T22:43:00Z`). */
function compactTime(time: unknown): number | undefined {
  if (typeof time !== 'string' || time.length !== 20 || time.charCodeAt(19) !== 0x5a) return undefined;
  const ms = Date.parse(time);
  if (!Number.isFinite(ms) || ms % 1000 !== 0) return undefined;
  return expandTime(ms / 1000) === time ? ms / 1000 : undefined;
}

let lastTime = { seconds: Number.NaN, text: '' };

/** Writes in a burst share their second, so the text is formatted once per second. */
function expandTime(seconds: number): string {
  if (seconds !== lastTime.seconds) lastTime = { seconds, text: `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z` };
  return lastTime.text;
}

function hasCanonicalKeys(entry: Record<string, unknown>): boolean {
  const keys = Object.keys(entry);
  const subresource = keys.length === CANONICAL_KEYS.length + 1;
  if (!subresource && keys.length !== CANONICAL_KEYS.length) return false;
  for (let i = 0; i < CANONICAL_KEYS.length; i++) if (keys[i] !== CANONICAL_KEYS[i]) return false;
  return !subresource || (keys[CANONICAL_KEYS.length] === 'subresource' && typeof entry.subresource === 'string');
}

function compactEntry(entry: unknown, objectApiVersion: unknown): unknown {
  if (!isJsonMap(entry) || !hasCanonicalKeys(entry)) return entry;
  const { manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource } = entry;
  const seconds = compactTime(time);
  if (
    seconds === undefined ||
    typeof manager !== 'string' ||
    (operation !== 'Apply' && operation !== 'Update') ||
    typeof apiVersion !== 'string' ||
    fieldsType !== 'FieldsV1' ||
    !isJsonMap(fieldsV1)
  )
    return entry;
  const out: unknown[] = [
    manager,
    operation === 'Apply' ? APPLY : UPDATE,
    apiVersion === objectApiVersion ? SAME_API_VERSION : apiVersion,
    seconds,
    fieldsV1,
  ];
  if (subresource !== undefined) out.push(subresource);
  return out;
}

function expandEntry(entry: unknown, objectApiVersion: unknown): unknown {
  if (!Array.isArray(entry)) return entry;
  const [manager, operation, apiVersion, seconds, fieldsV1, subresource] = entry as [string, number, string | 0, number, unknown, string?];
  const out: Record<string, unknown> = {
    manager,
    operation: operation === APPLY ? 'Apply' : 'Update',
    apiVersion: apiVersion === SAME_API_VERSION ? objectApiVersion : apiVersion,
    time: expandTime(seconds),
    fieldsType: 'FieldsV1',
    fieldsV1,
  };
  if (subresource !== undefined) out.subresource = subresource;
  return out;
}

/** The list storage keeps for an object's managedFields; the list itself when it holds nothing to compact. */
export function compactManagedFields(list: unknown, objectApiVersion: unknown): unknown {
  if (!Array.isArray(list) || list.length === 0) return list;
  return list.map((entry) => compactEntry(entry, objectApiVersion));
}

/** Restores the managedFields of an object read from storage in place, in either stored form. */
export function expandManagedFields(obj: KubeObject): void {
  const list = obj.metadata?.managedFields as StoredEntry[] | undefined;
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) if (Array.isArray(list[i])) list[i] = expandEntry(list[i], obj.apiVersion) as StoredEntry;
}
