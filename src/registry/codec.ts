import type { KeyValue } from '../storage/backend.js';
import { internalError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Objects are stored as JSON without `resourceVersion`: the version is the storage revision of the write,
 * filled in on the way out, exactly as kube-apiserver does with etcd.
 */
export function encodeObject(obj: KubeObject): Uint8Array {
  // Objects being created carry no resourceVersion, so they need no copy without it.
  if (obj.metadata.resourceVersion === undefined) return encoder.encode(JSON.stringify(obj));
  const { resourceVersion: _ignored, ...metadata } = obj.metadata;
  return encoder.encode(JSON.stringify({ ...obj, metadata }));
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
  return obj;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function undecodable(kv: KeyValue, detail: string): Error {
  return internalError(`object not decodable: key ${kv.key} at revision ${kv.modRevision}: ${detail}`);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
