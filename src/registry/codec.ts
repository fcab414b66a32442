import type { KeyValue } from '../storage/backend.js';
import { internalError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import { ARCHIVE_GROUP, ARCHIVE_VERSION, ARCHIVED_OBJECTS, CLUSTER_ARCHIVED_OBJECTS } from './archive/resources.js';
import { compactManagedFields, expandManagedFields } from './stored-managed-fields.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ARCHIVE_API_VERSION = `${ARCHIVE_GROUP}/${ARCHIVE_VERSION}`;

/**
 * Objects are stored as JSON without `resourceVersion`: the version is the storage revision of the write,
 * filled in on the way out, exactly as kube-apiserver does with etcd. managedFields are stored in their compact
 * form (stored-managed-fields.ts) and read back exactly as written.
 */
export function encodeObject(obj: KubeObject): Uint8Array {
  const { resourceVersion, managedFields } = obj.metadata;
  // Objects being created without managedFields need no copy.
  if (resourceVersion === undefined && managedFields === undefined) return encoder.encode(JSON.stringify(obj));
  const { resourceVersion: _ignored, ...metadata } = obj.metadata;
  if (managedFields !== undefined) metadata.managedFields = compactManagedFields(managedFields, obj.apiVersion) as unknown[];
  return encoder.encode(JSON.stringify({ ...obj, metadata }));
}

/** An archive entry keeps the removed object's stored bytes as its `object`, so their managedFields are compact too. */
function isArchiveEntry(obj: KubeObject): boolean {
  return obj.apiVersion === ARCHIVE_API_VERSION && (obj.kind === ARCHIVED_OBJECTS.kind || obj.kind === CLUSTER_ARCHIVED_OBJECTS.kind);
}

/**
 * Reads a stored object back. A value that is not an object with object metadata (written by something other than
 * this server, or damaged on disk) answers as kube-apiserver answers an undecodable value: 500 InternalError naming
 * the key, for this read only — the rest of the store stays readable.
 */
export function decodeObject(kv: KeyValue): KubeObject {
  let obj: KubeObject;
  try {
    obj = JSON.parse(decoder.decode(kv.value)) as KubeObject;
  } catch (err) {
    throw undecodable(kv, (err as Error).message);
  }
  if (!isRecord(obj) || !isRecord(obj.metadata)) throw undecodable(kv, 'the stored value is not an object with object metadata');
  obj.metadata.resourceVersion = String(kv.modRevision);
  try {
    expandManagedFields(obj);
    if (isArchiveEntry(obj) && isRecord(obj.object) && isRecord(obj.object.metadata)) expandManagedFields(obj.object as KubeObject);
  } catch (err) {
    throw undecodable(kv, `managedFields: ${(err as Error).message}`);
  }
  return obj;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function undecodable(kv: KeyValue, detail: string): Error {
  return internalError(`object not decodable: key ${kv.key} at revision ${kv.modRevision}: ${detail}`);
}

/**
 * Whether `bytes`, the encoding of `next`, are what storage holds already. Objects stored before managedFields were
 * compacted hold them in full: those compare against that encoding, so an update changing nothing stays a no-op.
 */
export function storesSame(bytes: Uint8Array, next: KubeObject, stored: Uint8Array): boolean {
  if (bytesEqual(bytes, stored)) return true;
  if (next.metadata.managedFields === undefined || !holdsFullManagedFields(stored)) return false;
  const { resourceVersion: _ignored, ...metadata } = next.metadata;
  return bytesEqual(encoder.encode(JSON.stringify({ ...next, metadata })), stored);
}

const FULL_ENTRY = Buffer.from('"managedFields":[{');

function holdsFullManagedFields(stored: Uint8Array): boolean {
  return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).includes(FULL_ENTRY);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
